import { NO_VALUE } from './no-value';

/** What a size that cannot be read shows. */
const NO_SIZE = NO_VALUE;

const SIZE_UNITS = ['B', 'kB', 'MB', 'GB', 'TB'] as const;

/**
 * A size in bytes as the spec shows file sizes (section 9): B, kB, MB, GB or TB with 2 decimals.
 * Decimal units, 1 kB = 1000 B, as the lower-case 'k' says (and as operating systems' file
 * managers mostly show them). Accepts the string sizes some calls send; '-' for anything unreadable.
 */
export function formatFileSize(bytes: string | number | null | undefined): string {
  if (bytes === null || bytes === undefined || bytes === '') return NO_SIZE;
  let size = Number(bytes);
  if (!Number.isFinite(size) || size < 0) return NO_SIZE;
  let unit = 0;
  while (size >= 1000 && unit < SIZE_UNITS.length - 1) {
    size /= 1000;
    unit += 1;
  }
  // 999.995 kB rounds to "1000.00 kB": show it in the next unit instead.
  if (size.toFixed(2) === '1000.00' && unit < SIZE_UNITS.length - 1) {
    size /= 1000;
    unit += 1;
  }
  return `${size.toFixed(2)} ${SIZE_UNITS[unit]}`;
}
