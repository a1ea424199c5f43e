import type { ContentFile } from '@plinth/shared';

/** The sortable columns of the files table (spec 2.5): Files, Last Updated, Size. */
export type FileSortColumn = 'name' | 'updated_at' | 'size';
export type FileSort = { column: FileSortColumn; direction: 'asc' | 'desc' };

/** The spec's default: by name, descending. */
export const DEFAULT_FILE_SORT: FileSort = { column: 'name', direction: 'desc' };

const byName = (a: ContentFile, b: ContentFile) => a.name.localeCompare(b.name, undefined, { numeric: true, sensitivity: 'base' }) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

const COMPARE: Record<FileSortColumn, (a: ContentFile, b: ContentFile) => number> = {
  name: byName,
  updated_at: (a, b) => (Date.parse(a.updated_at) || 0) - (Date.parse(b.updated_at) || 0),
  size: (a, b) => a.size - b.size,
};

/** The files in the table's order; equal dates or sizes fall back to the name, ascending. */
export function sortFiles(files: readonly ContentFile[], { column, direction }: FileSort): ContentFile[] {
  const sign = direction === 'asc' ? 1 : -1;
  return [...files].sort((a, b) => sign * COMPARE[column](a, b) || byName(a, b));
}

/** A header click: the same column turns around; another column starts ascending. */
export function nextFileSort(current: FileSort, column: FileSortColumn): FileSort {
  if (current.column === column) return { column, direction: current.direction === 'asc' ? 'desc' : 'asc' };
  return { column, direction: 'asc' };
}

/** Whether a file may be checked and deleted here: organizational ones belong to the content manager. */
export const isDeletable = (file: ContentFile) => !file.organizational;
