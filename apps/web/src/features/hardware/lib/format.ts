import type { Hardware } from '@plinth/shared';

import { NO_VALUE } from '../../../lib/no-value';

/** The overview's values: a dash for what the board has not reported (spec 2.13). */
export { NO_VALUE as MISSING, orDash } from '../../../lib/no-value';

/**
 * The peripheral count of the overview: a dash for a board that has never reported (no firmware,
 * address or peripheral yet), as for its other fields; 0 only when a board said it has none.
 */
export function peripheralCount(hardware: Pick<Hardware, 'numPeripherals' | 'plinth_fw' | 'ip' | 'mac'>): string {
  const hasReported = hardware.numPeripherals > 0 || [hardware.plinth_fw, hardware.ip, hardware.mac].some((v) => v !== null && v.trim() !== '');
  return hasReported ? String(hardware.numPeripherals) : NO_VALUE;
}

/** File sizes are written by the console's one formatter (spec section 9). */
export { formatFileSize } from '../../../lib/format-file-size';
