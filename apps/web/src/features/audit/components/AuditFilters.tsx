import { Button, Group, Select, TextInput } from '@mantine/core';
import { DateTimePicker } from '@mantine/dates';
import { useState } from 'react';
import { AUDIT_ACTIONS, type AuditAction } from '@plinth/shared';
import { DATE_FORMATS } from '../../../lib/format-date';
import type { AuditFilter } from '../api/list-audit-entries';
import { ACTION_LABELS } from '../lib/audit-filter-params';

export type AuditFiltersProps = {
  filter: AuditFilter;
  sites: { id: string; name: string }[];
  exhibits: { id: string; name: string; siteId: string }[];
  onChange: (filter: AuditFilter) => void;
};

/** The time range: `from` included, `to` excluded. */
const TIME_FIELDS = [
  { label: 'From', key: 'from' },
  { label: 'To', key: 'to' },
] as const;

const ACTION_OPTIONS = AUDIT_ACTIONS.map((action) => ({ value: action, label: ACTION_LABELS[action] }));

function toDate(epoch: number | undefined): Date | null {
  return epoch === undefined ? null : new Date(epoch);
}

function toEpoch(value: string | Date | null): number | undefined {
  if (!value) return undefined;
  const time = new Date(value).getTime();
  return Number.isNaN(time) ? undefined : time;
}

/**
 * The audit log's filters: site, exhibit (of the chosen site, or all), person (part of an email or
 * an API key's name, applied on Enter or with Apply), action and a time range. Each change reads
 * the first page again from the server.
 */
export function AuditFilters({ filter, sites, exhibits, onChange }: AuditFiltersProps) {
  const [person, setPerson] = useState(filter.actor ?? '');
  const shownExhibits = filter.siteId ? exhibits.filter((e) => e.siteId === filter.siteId) : exhibits;
  const applyPerson = () => onChange({ ...filter, actor: person.trim() || undefined });
  return (
    <Group align="flex-end" gap="sm" wrap="wrap">
      <Select
        label="Site"
        placeholder="All sites"
        clearable
        data={sites.map((s) => ({ value: s.id, label: s.name }))}
        value={filter.siteId ?? null}
        onChange={(siteId) => onChange({ ...filter, siteId: siteId ?? undefined, exhibitId: undefined })}
        w={180}
      />
      <Select
        label="Exhibit"
        placeholder="All exhibits"
        clearable
        searchable
        data={shownExhibits.map((e) => ({ value: e.id, label: e.name }))}
        value={filter.exhibitId ?? null}
        onChange={(exhibitId) => onChange({ ...filter, exhibitId: exhibitId ?? undefined })}
        w={200}
      />
      <TextInput
        label="Person"
        placeholder="Email or key name"
        value={person}
        onChange={(e) => setPerson(e.currentTarget.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') applyPerson();
        }}
        onBlur={applyPerson}
        w={200}
      />
      <Select
        label="Action"
        placeholder="All actions"
        clearable
        data={ACTION_OPTIONS}
        value={filter.action ?? null}
        onChange={(action) => onChange({ ...filter, action: (action as AuditAction | null) ?? undefined })}
        w={150}
      />
      {TIME_FIELDS.map(({ label, key }) => (
        <DateTimePicker
          key={key}
          label={label}
          clearable
          value={toDate(filter[key])}
          valueFormat={DATE_FORMATS.picker}
          onChange={(value) => onChange({ ...filter, [key]: toEpoch(value) })}
          submitButtonProps={{ 'aria-label': `Apply ${label.toLowerCase()}` }}
          w={200}
        />
      ))}
      <Button
        variant="subtle"
        onClick={() => {
          setPerson('');
          onChange({});
        }}
      >
        Clear filters
      </Button>
    </Group>
  );
}
