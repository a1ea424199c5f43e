import { renderHook } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { useKeptOrder, useSameIds } from './useKeptOrder';

type Item = { id: string; name: string; voltage: number };

const byName = (items: Item[]) => [...items].sort((a, b) => a.name.localeCompare(b.name));
const nameOf = (item: Item) => item.name;

function setup(initial: Item[]) {
  const arrange = vi.fn(byName);
  const view = renderHook(({ items, search }: { items: Item[]; search: string }) => useKeptOrder(items, arrange, nameOf, search), {
    initialProps: { items: initial, search: '' },
  });
  return { arrange, view };
}

const list: Item[] = [
  { id: 'c', name: 'Charlie', voltage: 5 },
  { id: 'a', name: 'Alpha', voltage: 5 },
  { id: 'b', name: 'Bravo', voltage: 5 },
];

describe('useKeptOrder', () => {
  it('keeps the order without arranging again when only other fields change, and shows the new items', () => {
    const { arrange, view } = setup(list);
    expect(view.result.current.map((i) => i.id)).toEqual(['a', 'b', 'c']);
    const patched = list.map((item) => (item.id === 'b' ? { ...item, voltage: 3.3 } : item));
    view.rerender({ items: patched, search: '' });
    expect(arrange).toHaveBeenCalledTimes(1);
    expect(view.result.current.map((i) => i.id)).toEqual(['a', 'b', 'c']);
    expect(view.result.current[1]).toBe(patched[2]);
    expect(view.result.current[1]!.voltage).toBe(3.3);
  });

  it('arranges again when a key, the ids or the arrangement key change', () => {
    const { arrange, view } = setup(list);
    const renamed = list.map((item) => (item.id === 'c' ? { ...item, name: 'Aardvark' } : item));
    view.rerender({ items: renamed, search: '' });
    expect(view.result.current.map((i) => i.id)).toEqual(['c', 'a', 'b']);
    view.rerender({ items: [...renamed, { id: 'd', name: 'Delta', voltage: 5 }], search: '' });
    expect(view.result.current.map((i) => i.id)).toEqual(['c', 'a', 'b', 'd']);
    view.rerender({ items: [...renamed, { id: 'd', name: 'Delta', voltage: 5 }], search: 'x' });
    expect(arrange).toHaveBeenCalledTimes(4);
  });
});

describe('useSameIds', () => {
  it('answers the same array while the ids stay the same, a new one when they change', () => {
    const view = renderHook(({ items }: { items: Item[] }) => useSameIds(items), { initialProps: { items: list } });
    const first = view.result.current;
    expect(first).toEqual(['c', 'a', 'b']);
    view.rerender({ items: list.map((item) => ({ ...item, voltage: 1 })) });
    expect(view.result.current).toBe(first);
    view.rerender({ items: [...list].reverse() });
    expect(view.result.current).toEqual(['b', 'a', 'c']);
  });
});
