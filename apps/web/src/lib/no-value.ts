/** What the console shows for every missing value (a date, a size, a field a device never reported): one dash (spec 2.13). */
export const NO_VALUE = '-';

/** A value as text, or the dash when it is missing or blank. */
export function orDash(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined) return NO_VALUE;
  const text = String(value).trim();
  return text === '' ? NO_VALUE : text;
}
