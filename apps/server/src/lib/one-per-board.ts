/**
 * The first item of each board (up to `most`) now, the others, in order, for later: an UPDATE
 * changes each row once, so one statement takes at most one item per board.
 */
export function splitOnePerBoard<W extends { hardwareId: string }>(items: W[], most = Infinity): { now: W[]; later: W[] } {
  const seen = new Set<string>();
  const now: W[] = [];
  const later: W[] = [];
  for (const item of items) {
    if (seen.has(item.hardwareId) || now.length >= most) later.push(item);
    else {
      seen.add(item.hardwareId);
      now.push(item);
    }
  }
  return { now, later };
}
