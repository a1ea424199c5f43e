/** What the overview shows for a value the board has not reported. */
export const MISSING = '-';

/** A value as text, or a dash when it is missing (spec 2.13). */
export function orDash(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return MISSING;
  const text = String(value).trim();
  return text === '' ? MISSING : text;
}

const SIZE_UNITS = ['B', 'kB', 'MB', 'GB', 'TB'] as const;

/** A file size in B, kB, MB, GB or TB with 2 decimals (spec section 9); the spec sends sizes as strings. */
export function formatFileSize(bytes: string | number): string {
  let size = Number(bytes);
  if (!Number.isFinite(size) || size < 0) return MISSING;
  let unit = 0;
  while (size >= 1000 && unit < SIZE_UNITS.length - 1) {
    size /= 1000;
    unit += 1;
  }
  return `${size.toFixed(2)} ${SIZE_UNITS[unit]}`;
}
