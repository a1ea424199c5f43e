import { ORG_FILE_PREFIX, type ContentFile, type StrapiContentList } from '@plinth/shared';

/**
 * The content manager's entries and media files as Plinth answers them: the shared shapes of
 * packages/shared/src/api/content.ts, built from what the content manager answered.
 */

/** A content entry with its fields at the top level (Strapi v4's `attributes` flattened), as the exhibit receives it. */
export type ContentEntry = { id: string | number } & Record<string, unknown>;

/** The entry's `displayFieldName` field as text: '' when it is missing or not a plain value. */
export function displayText(entry: ContentEntry, displayFieldName: string): string {
  const value = entry[displayFieldName];
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return '';
}

/**
 * The id the REST API reads one entry by, and the one a StrapiContent setting stores: Strapi
 * v5's `documentId` when the entry has one, else its `id` (v4).
 */
export function entryKey(entry: ContentEntry): string | number {
  const documentId = entry.documentId;
  return typeof documentId === 'string' && documentId ? documentId : entry.id;
}

/** One page of a content type's entries (GET .../strapi/content). */
export function presentStrapiContentList(
  entries: ContentEntry[],
  page: { displayFieldName: string; page: number; pageCount: number; total: number },
): StrapiContentList {
  return {
    entries: entries.map((entry) => ({ id: entryKey(entry), display: displayText(entry, page.displayFieldName) })),
    page: page.page,
    pageCount: page.pageCount,
    total: page.total,
  };
}

/** A media-library file as the content manager lists it (Strapi's upload plugin). */
export type MediaLibraryFile = { name: string; size: number; updatedAt: string };

/** An organizational file: '[ORG] <name>', its size in bytes from the library's kB, no hash. */
export function presentOrganizationFile(file: MediaLibraryFile): ContentFile {
  return {
    name: `${ORG_FILE_PREFIX} ${file.name}`,
    updated_at: file.updatedAt,
    // Strapi keeps the size in kB (1000 bytes) with two decimals: this is within 5 bytes of the real size.
    size: Math.round(file.size * 1000),
    organizational: true,
    sha256: null,
  };
}
