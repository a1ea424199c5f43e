import type { Hardware } from '@plinth/shared';

/** What the overview shows for a value the board has not reported. */
export const MISSING = '-';

/** A value as text, or a dash when it is missing (spec 2.13). */
export function orDash(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return MISSING;
  const text = String(value).trim();
  return text === '' ? MISSING : text;
}

/**
 * The peripheral count of the overview: a dash for a board that has never reported (no firmware,
 * address or peripheral yet), as for its other fields; 0 only when a board said it has none.
 */
export function peripheralCount(hardware: Pick<Hardware, 'numPeripherals' | 'plinth_fw' | 'ip' | 'mac'>): string {
  const hasReported = hardware.numPeripherals > 0 || [hardware.plinth_fw, hardware.ip, hardware.mac].some((v) => v !== null && v.trim() !== '');
  return hasReported ? String(hardware.numPeripherals) : MISSING;
}

/** File sizes are written by the console's one formatter (spec section 9). */
export { formatFileSize } from '../../../lib/format-file-size';
