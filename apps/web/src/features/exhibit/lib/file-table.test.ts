import { describe, expect, it } from 'vitest';
import type { ContentFile } from '@plinth/shared';
import { DEFAULT_FILE_SORT, isDeletable, nextFileSort, sortFiles } from './file-table';

const file = (name: string, updated_at: string, size: number, organizational = false): ContentFile => ({
  name,
  updated_at,
  size,
  organizational,
  sha256: organizational ? null : 'ab',
});

const FILES = [
  file('b.png', '2026-03-01T10:00:00.000Z', 300),
  file('a10.mp4', '2026-01-01T10:00:00.000Z', 100),
  file('a2.mp4', '2026-02-01T10:00:00.000Z', 300),
  file('[ORG] logo.svg', '2025-12-01T10:00:00.000Z', 50, true),
];
const names = (files: ContentFile[]) => files.map((f) => f.name);

describe('sortFiles', () => {
  it('sorts by name descending by default, numbers in names by value', () => {
    expect(names(sortFiles(FILES, DEFAULT_FILE_SORT))).toEqual(['b.png', 'a10.mp4', 'a2.mp4', '[ORG] logo.svg']);
    expect(names(sortFiles(FILES, { column: 'name', direction: 'asc' }))).toEqual(['[ORG] logo.svg', 'a2.mp4', 'a10.mp4', 'b.png']);
  });

  it('sorts by date and by size, equal ones by name', () => {
    expect(names(sortFiles(FILES, { column: 'updated_at', direction: 'desc' }))).toEqual(['b.png', 'a2.mp4', 'a10.mp4', '[ORG] logo.svg']);
    expect(names(sortFiles(FILES, { column: 'size', direction: 'asc' }))).toEqual(['[ORG] logo.svg', 'a10.mp4', 'a2.mp4', 'b.png']);
    expect(names(sortFiles(FILES, { column: 'size', direction: 'desc' }))).toEqual(['a2.mp4', 'b.png', 'a10.mp4', '[ORG] logo.svg']);
  });

  it('leaves the given list alone', () => {
    const before = names(FILES);
    sortFiles(FILES, { column: 'size', direction: 'asc' });
    expect(names(FILES)).toEqual(before);
  });
});

describe('nextFileSort', () => {
  it('turns the same column around and starts another one ascending', () => {
    expect(nextFileSort(DEFAULT_FILE_SORT, 'name')).toEqual({ column: 'name', direction: 'asc' });
    expect(nextFileSort({ column: 'name', direction: 'asc' }, 'name')).toEqual({ column: 'name', direction: 'desc' });
    expect(nextFileSort(DEFAULT_FILE_SORT, 'size')).toEqual({ column: 'size', direction: 'asc' });
  });
});

describe('isDeletable', () => {
  it('keeps organizational files out of the selection', () => {
    expect(FILES.filter(isDeletable).map((f) => f.name)).not.toContain('[ORG] logo.svg');
  });
});
