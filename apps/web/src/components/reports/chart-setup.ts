import { BarController, BarElement, CategoryScale, Chart, Colors, Legend, LinearScale, LineController, LineElement, PointElement, Tooltip } from 'chart.js';

/**
 * Registers with chart.js only what the report charts draw (bar and line charts on a category
 * axis, the default palette, legend and tooltips), so the bundle carries nothing else.
 */
Chart.register(CategoryScale, LinearScale, BarController, BarElement, LineController, LineElement, PointElement, Colors, Legend, Tooltip);
