import type { Peripheral } from '@plinth/shared';
import type { Db } from '../db/client.js';
import { readPeripherals } from './hardware-ingest.repository.js';

type KnownPeripheral = { name: string; types: Map<string, string> };

/**
 * Names and types of each board's props, for the `hardware.prop` event, from its announced
 * peripherals: kept in memory, read from the database when a prop is not known (after a restart,
 * or when the board announced through another server instance).
 */
export class BoardPropCatalog {
  private readonly boards = new Map<string, Map<string, KnownPeripheral>>();

  constructor(private readonly db: Db) {}

  remember(hardwareId: string, peripherals: Peripheral[]): void {
    this.boards.set(hardwareId, new Map(peripherals.map((p) => [p.id, { name: p.name, types: new Map(p.props.map((prop) => [prop.name, prop.type])) }])));
  }

  forget(hardwareId: string): void {
    this.boards.delete(hardwareId);
  }

  /** The prop's peripheral name and type; one this instance does not know is looked up again. */
  async lookup(hardwareId: string, peripheralId: string, propName: string): Promise<{ periphName: string; propType: string } | null> {
    const known = this.find(hardwareId, peripheralId, propName);
    if (known) return known;
    this.remember(hardwareId, await readPeripherals(this.db, hardwareId));
    return this.find(hardwareId, peripheralId, propName);
  }

  private find(hardwareId: string, peripheralId: string, propName: string): { periphName: string; propType: string } | null {
    const peripheral = this.boards.get(hardwareId)?.get(peripheralId);
    const propType = peripheral?.types.get(propName);
    return peripheral && propType !== undefined ? { periphName: peripheral.name, propType } : null;
  }
}
