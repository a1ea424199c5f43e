import type { Peripheral } from '@plinth/shared';

/**
 * One board's props, flat: peripheral id, prop name, peripheral name and prop type, then the
 * next prop's four. A board has a few dozen props at most, so a scan is as quick as a lookup in
 * maps, and far smaller: a map per peripheral cost about 3 KB a board (heap snapshots, issue 22).
 */
type BoardProps = readonly string[];
const STRIDE = 4;

/** Distinct strings kept before the pool starts again (boards keep the strings they hold). */
const POOL_LIMIT = 50_000;

/**
 * Names and types of each board's props, for the `hardware.prop` event, from its announced
 * peripherals: kept in memory, read again (`read`) when a prop is not known (after a restart, or
 * when the board announced through another server instance). Boards of one firmware announce the
 * same names and types: each distinct string is kept once for all of them.
 */
export class BoardPropCatalog {
  private readonly boards = new Map<string, BoardProps>();
  private readonly pool = new Map<string, string>();

  constructor(private readonly read: (hardwareId: string) => Promise<Peripheral[]>) {}

  remember(hardwareId: string, peripherals: Peripheral[]): void {
    const props: string[] = [];
    for (const peripheral of peripherals) {
      const id = this.shared(peripheral.id);
      const name = this.shared(peripheral.name);
      for (const prop of peripheral.props) props.push(id, this.shared(prop.name), name, this.shared(prop.type));
    }
    this.boards.set(hardwareId, props.slice()); // exactly as long as it needs (push leaves spare room)
  }

  forget(hardwareId: string): void {
    this.boards.delete(hardwareId);
  }

  /** The prop's peripheral name and type; one this instance does not know is looked up again. */
  async lookup(hardwareId: string, peripheralId: string, propName: string): Promise<{ periphName: string; propType: string } | null> {
    const known = this.find(hardwareId, peripheralId, propName);
    if (known) return known;
    this.remember(hardwareId, await this.read(hardwareId));
    return this.find(hardwareId, peripheralId, propName);
  }

  /** The prop's peripheral name and type when this instance knows them (no database read). */
  find(hardwareId: string, peripheralId: string, propName: string): { periphName: string; propType: string } | null {
    const props = this.boards.get(hardwareId);
    if (!props) return null;
    for (let i = 0; i < props.length; i += STRIDE) {
      if (props[i] === peripheralId && props[i + 1] === propName) return { periphName: props[i + 2]!, propType: props[i + 3]! };
    }
    return null;
  }

  private shared(text: string): string {
    const kept = this.pool.get(text);
    if (kept !== undefined) return kept;
    // A pool grown past its limit (boards announcing ever new names) starts again rather than grow.
    if (this.pool.size >= POOL_LIMIT) this.pool.clear();
    this.pool.set(text, text);
    return text;
  }
}
