import { useMemo, useRef } from 'react';

type Arranged = { keys: string[]; arrangeKey: string; ids: string[] };

/**
 * `arrange(items)` (a filter and a sort), done again only when something it reads changes. While
 * every item's `keyOf` (the fields the arrangement reads: a name, a search match) and `arrangeKey`
 * (the search typed) stay the same, the previous order is kept and filled with the current items.
 * A live value patched into a list of 10,000 (a heartbeat, a presence) then costs one pass over
 * the list instead of a sort of it (issue 17). With `keyOf` null every new list is arranged.
 */
export function useKeptOrder<T extends { id: string }>(
  items: T[],
  arrange: (items: T[]) => T[],
  keyOf: ((item: T) => string) | null,
  arrangeKey = '',
): T[] {
  const last = useRef<Arranged | null>(null);
  return useMemo(() => {
    // Without keyOf nothing is known of what the arrangement reads: it is done for every new list.
    if (!keyOf) return arrange(items);
    const keys = items.map((item) => `${item.id}\u0000${keyOf(item)}`);
    const before = last.current;
    if (before && before.arrangeKey === arrangeKey && sameKeys(before.keys, keys)) {
      const byId = new Map(items.map((item) => [item.id, item]));
      return before.ids.map((id) => byId.get(id)!);
    }
    const arranged = arrange(items);
    last.current = { keys, arrangeKey, ids: arranged.map((item) => item.id) };
    return arranged;
    // `arrange` and `keyOf` are read with the items: callers pass functions that do not change meaning.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [items, arrangeKey]);
}

function sameKeys(a: string[], b: string[]): boolean {
  if (a.length !== b.length) return false;
  for (let n = 0; n < a.length; n += 1) if (a[n] !== b[n]) return false;
  return true;
}

/**
 * The ids of `items`, as the same array while they are the same ids in the same order: a list
 * patched by live values (heartbeats) keeps its ids, so what depends on them (the socket
 * subscription) is not made again.
 */
export function useSameIds(items: { id: string }[]): string[] {
  const last = useRef<string[]>([]);
  return useMemo(() => {
    const before = last.current;
    if (before.length === items.length && items.every((item, n) => item.id === before[n])) return before;
    last.current = items.map((item) => item.id);
    return last.current;
  }, [items]);
}
