export { SimulatedBoard, startSimulatedBoard, type BoardEvent, type SimulatedBoardOptions } from './board.js';
export { defaultPeripherals } from './peripherals.js';
