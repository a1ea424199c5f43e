import { ActionIcon, Anchor, Badge, Checkbox, Group, Table, Text, Tooltip, UnstyledButton } from '@mantine/core';
import { IconChevronDown, IconChevronUp, IconDownload, IconSelector } from '@tabler/icons-react';
import type { ContentFile } from '@plinth/shared';
import { formatDate } from '../../../../lib/format-date';
import { formatFileSize } from '../../../../lib/format-file-size';
import { fileDownloadUrl } from '../../api/download-file';
import { mediaLibraryUrl } from '../../lib/content-manager';
import { isDeletable, nextFileSort, sortFiles, type FileSort, type FileSortColumn } from '../../lib/file-table';

export type FilesTableProps = {
  exhibitId: string;
  files: ContentFile[];
  sort: FileSort;
  onSortChange: (sort: FileSort) => void;
  /** The checked file names; null when the user may not delete here (no checkboxes). */
  checked: ReadonlySet<string> | null;
  onCheckedChange: (checked: Set<string>) => void;
  /** The organization's content manager, where organizational files open; null when not connected. */
  contentManagerUrl: string | null;
};

const COLUMNS: { column: FileSortColumn; label: string }[] = [
  { column: 'name', label: 'Files' },
  { column: 'updated_at', label: 'Last Updated' },
  { column: 'size', label: 'Size' },
];

function SortHeader({ column, label, sort, onSortChange }: { column: FileSortColumn; label: string; sort: FileSort; onSortChange: (sort: FileSort) => void }) {
  const isActive = sort.column === column;
  const Icon = !isActive ? IconSelector : sort.direction === 'asc' ? IconChevronUp : IconChevronDown;
  return (
    <Table.Th aria-sort={isActive ? (sort.direction === 'asc' ? 'ascending' : 'descending') : 'none'}>
      <UnstyledButton onClick={() => onSortChange(nextFileSort(sort, column))} fw={700} fz="sm">
        <Group gap={4} wrap="nowrap">
          {label}
          <Icon size={14} aria-hidden />
        </Group>
      </UnstyledButton>
    </Table.Th>
  );
}

function FileName({ file, contentManagerUrl }: { file: ContentFile; contentManagerUrl: string | null }) {
  const name = <span style={{ overflowWrap: 'anywhere' }}>{file.name}</span>;
  if (!file.organizational) return <Text size="sm">{name}</Text>;
  return (
    <Group gap="xs" wrap="nowrap">
      {contentManagerUrl ? (
        <Tooltip label="Opens in the content manager">
          <Anchor href={mediaLibraryUrl(contentManagerUrl)} target="_blank" rel="noopener noreferrer" size="sm">
            {name}
          </Anchor>
        </Tooltip>
      ) : (
        <Text size="sm">{name}</Text>
      )}
      <Badge size="xs" variant="light">
        Organizational
      </Badge>
    </Group>
  );
}

/**
 * The files table of the Files tab (spec 2.5): sortable Files, Last Updated and Size columns
 * (headers are buttons; `aria-sort` says the order), a download link per file, and, for users who
 * may delete here, a checkbox per exhibit file and one for all of them. Organizational files are
 * listed but not checkable: they open in the content manager.
 */
export function FilesTable({ exhibitId, files, sort, onSortChange, checked, onCheckedChange, contentManagerUrl }: FilesTableProps) {
  const rows = sortFiles(files, sort);
  const deletable = files.filter(isDeletable).map((f) => f.name);
  const checkedCount = checked ? deletable.filter((name) => checked.has(name)).length : 0;

  const toggle = (name: string) => {
    const next = new Set(checked);
    if (next.has(name)) next.delete(name);
    else next.add(name);
    onCheckedChange(next);
  };
  const toggleAll = () => onCheckedChange(new Set(checkedCount === deletable.length ? [] : deletable));

  return (
    <Table.ScrollContainer minWidth={520}>
      <Table highlightOnHover aria-label="Files">
        <Table.Thead>
          <Table.Tr>
            {checked && (
              <Table.Th w={40}>
                <Checkbox
                  aria-label="Select all files"
                  checked={deletable.length > 0 && checkedCount === deletable.length}
                  indeterminate={checkedCount > 0 && checkedCount < deletable.length}
                  disabled={deletable.length === 0}
                  onChange={toggleAll}
                />
              </Table.Th>
            )}
            {COLUMNS.map((c) => (
              <SortHeader key={c.column} {...c} sort={sort} onSortChange={onSortChange} />
            ))}
            <Table.Th>Download</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((file) => (
            <Table.Tr key={file.name} data-testid="file-row">
              {checked && (
                <Table.Td>
                  {isDeletable(file) && <Checkbox aria-label={`Select ${file.name}`} checked={checked.has(file.name)} onChange={() => toggle(file.name)} />}
                </Table.Td>
              )}
              <Table.Td>
                <FileName file={file} contentManagerUrl={contentManagerUrl} />
              </Table.Td>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDate(file.updated_at, 'card')}</Table.Td>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatFileSize(file.size)}</Table.Td>
              <Table.Td>
                <ActionIcon
                  component="a"
                  href={fileDownloadUrl({ exhibitId, fileName: file.name })}
                  download={file.name}
                  variant="subtle"
                  aria-label={`Download ${file.name}`}
                >
                  <IconDownload size={18} />
                </ActionIcon>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
