import { Select, type ComboboxItemGroup } from '@mantine/core';
import { useParams } from 'react-router';
import type { ContentFile, SettingValue } from '@plinth/shared';
import { useExhibitFiles } from '../../api/list-files';
import { sortFiles } from '../../lib/file-table';

export type FileSelectionFieldProps = {
  label: string;
  value: SettingValue;
  disabled: boolean;
  /** The pending value's error, if any. */
  error?: string | null;
  onChange: (value: SettingValue) => void;
};

export const MISSING_FILE_MESSAGE = "This file is not among the exhibit's files any more.";

/** The choices: the exhibit's files, then the organizational ones, each by name; a missing current value first. */
export function fileSelectionOptions(files: readonly ContentFile[], current: string): ComboboxItemGroup[] {
  const sorted = sortFiles(files, { column: 'name', direction: 'asc' });
  const item = (f: ContentFile) => ({ value: f.name, label: f.name });
  const groups: ComboboxItemGroup[] = [];
  if (current && !files.some((f) => f.name === current)) groups.push({ group: 'Current value', items: [{ value: current, label: `${current} (missing)` }] });
  const own = sorted.filter((f) => !f.organizational).map(item);
  const organizational = sorted.filter((f) => f.organizational).map(item);
  if (own.length) groups.push({ group: 'Exhibit files', items: own });
  if (organizational.length) groups.push({ group: 'Organizational files', items: organizational });
  return groups;
}

/**
 * A FileSelection setting (spec 2.4): a searchable choice among the exhibit's files (its
 * leader's, for a follower) and the organizational ones, which can be cleared. A value naming a
 * file that is gone still shows, marked missing. The exhibit is the one of the screen's route.
 */
export function FileSelectionField({ label, value, disabled, error, onChange }: FileSelectionFieldProps) {
  const { exhibitId, siteId } = useParams();
  const list = useExhibitFiles({ exhibitId, siteId });
  const current = typeof value === 'string' ? value : '';
  const files = list.data?.files ?? [];
  // Until the list is read, the current value is not known to be missing.
  const data = list.data ? fileSelectionOptions(files, current) : current ? [{ value: current, label: current }] : [];
  const isMissing = Boolean(list.data && current && !files.some((f) => f.name === current));

  const description = list.isError
    ? 'The files cannot be listed right now.'
    : list.data && list.data.errors.length > 0
      ? 'Organizational Content is unavailable now'
      : undefined;

  return (
    <Select
      aria-label={label}
      data={data}
      value={current || null}
      searchable
      clearable
      // Mantine hides its clear button from the keyboard and screen readers; this one may be reached.
      clearButtonProps={{ 'aria-label': `Clear ${label}`, 'aria-hidden': false, tabIndex: 0 }}
      placeholder={list.isPending && !current ? 'Loading files…' : 'Choose a file'}
      nothingFoundMessage="No file matches"
      disabled={disabled}
      description={description}
      error={error ?? (isMissing ? MISSING_FILE_MESSAGE : undefined)}
      onChange={(v) => onChange(v ?? '')}
    />
  );
}
