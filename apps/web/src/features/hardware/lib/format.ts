/** What the overview shows for a value the board has not reported. */
export const MISSING = '-';

/** A value as text, or a dash when it is missing (spec 2.13). */
export function orDash(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return MISSING;
  const text = String(value).trim();
  return text === '' ? MISSING : text;
}

/** File sizes are written by the console's one formatter (spec section 9). */
export { formatFileSize } from '../../../lib/format-file-size';
