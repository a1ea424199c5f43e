/**
 * A count with its noun, singular for exactly one: '1 item', '0 items', '3 items'. `plural`
 * defaults to the singular with an s.
 */
export function countLabel(count: number, singular: string, plural = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : plural}`;
}
