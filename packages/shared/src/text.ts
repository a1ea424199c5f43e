/** Lowercase and trim an email before it is stored or compared. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** Setting-list item names and firmware names have double quotes and slashes stripped. */
export function stripQuotesAndSlashes(value: string): string {
  return value.replace(/["/\\]/g, '');
}

/** Case-insensitive substring match used by every search box. */
export function matchesSearch(haystack: string | null | undefined, needle: string): boolean {
  if (!needle) return true;
  return (haystack ?? '').toLowerCase().includes(needle.trim().toLowerCase());
}
