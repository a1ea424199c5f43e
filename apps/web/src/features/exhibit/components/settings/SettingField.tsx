import { Badge, Group, NumberInput, SegmentedControl, Select, Stack, Switch, Text, TextInput, Tooltip } from '@mantine/core';
import type { ExhibitSetting, SettingValue } from '@plinth/shared';
import { pendingValueError } from '../../lib/settings-tree';
import { DateSettingPicker } from './DateSettingPicker';
import { FileSelectionField } from './FileSelectionField';
import { RichTextSetting } from './RichTextSetting';
import { StrapiContentField } from './StrapiContentField';

export type SettingFieldProps = {
  /** The exhibit the setting belongs to (StrapiContent settings list their options through it). */
  exhibitId: string;
  setting: ExhibitSetting;
  /** The value shown: the pending edit, else the saved value. */
  value: SettingValue;
  isModified: boolean;
  /** Applied state of the saved value (for list items, the item's). */
  isApplied: boolean;
  disabled: boolean;
  /** Why the field is disabled, when it is for a reason the user can act on. */
  disabledReason?: string | null;
  onChange: (value: SettingValue) => void;
  organizationId: string;
  /**
   * The organization's content service URL; null when it is not set or not readable (a StrapiContent
   * setting asks the server, which knows either way).
   */
  contentServiceUrl: string | null;
};

function StateBadge({ isModified, isApplied }: { isModified: boolean; isApplied: boolean }) {
  if (isModified) {
    return (
      <Badge color="orange" variant="light" size="sm">
        Modified
      </Badge>
    );
  }
  return isApplied ? (
    <Tooltip label="The exhibit has applied this value.">
      <Badge color="teal" variant="light" size="sm">
        Applied
      </Badge>
    </Tooltip>
  ) : (
    <Tooltip label="Saved; the exhibit has not applied it yet (it gets it when it is online).">
      <Badge color="yellow" variant="light" size="sm">
        Not applied yet
      </Badge>
    </Tooltip>
  );
}

/** One setting with the input of its type, its Modified or applied state and its limits. */
export function SettingField(props: SettingFieldProps) {
  const { exhibitId, setting, value, isModified, isApplied, disabled, disabledReason, onChange, organizationId } = props;
  const label = setting.display;
  const error = isModified ? pendingValueError(setting, value) : null;

  const input = (() => {
    switch (setting.type) {
      case 'Toggle':
        return <Switch aria-label={label} checked={value === true} disabled={disabled} onChange={(e) => onChange(e.currentTarget.checked)} />;
      case 'IntegerInput':
        return (
          <NumberInput
            aria-label={label}
            value={typeof value === 'number' ? value : ''}
            allowDecimal={false}
            min={setting.min ?? undefined}
            max={setting.max ?? undefined}
            disabled={disabled}
            error={error}
            onChange={(v) => onChange(typeof v === 'number' ? v : v === '' || v === '-' ? null : Number(v))}
          />
        );
      case 'Dropdown':
        return (
          <Select
            aria-label={label}
            data={[...setting.items].sort((a, b) => a.order - b.order).map((i) => ({ value: i.id, label: i.display }))}
            value={typeof value === 'string' ? value : null}
            allowDeselect={false}
            disabled={disabled}
            error={error}
            onChange={(v) => v !== null && onChange(v)}
          />
        );
      case 'SingleButtonGroup':
        return (
          <SegmentedControl
            aria-label={label}
            data={[...setting.items].sort((a, b) => a.order - b.order).map((i) => ({ value: i.id, label: i.display }))}
            value={typeof value === 'string' ? value : ''}
            disabled={disabled}
            onChange={onChange}
          />
        );
      case 'TextInput':
        return (
          <TextInput
            aria-label={label}
            value={typeof value === 'string' ? value : ''}
            disabled={disabled}
            onChange={(e) => onChange(e.currentTarget.value)}
          />
        );
      case 'TextAreaInput':
        return <RichTextSetting label={label} value={typeof value === 'string' ? value : ''} disabled={disabled} onChange={onChange} />;
      case 'Date':
        return <DateSettingPicker label={label} labelHidden value={value} disabled={disabled} onChange={onChange} />;
      case 'FileSelection':
        return <FileSelectionField label={label} value={value} disabled={disabled} error={error} onChange={onChange} />;
      case 'StrapiContent':
        return (
          <StrapiContentField
            exhibitId={exhibitId}
            organizationId={organizationId}
            setting={setting}
            value={value}
            disabled={disabled}
            label={label}
            onChange={onChange}
          />
        );
    }
  })();

  return (
    <Stack gap={4} data-testid={`setting-${setting.manifestId}`}>
      <Group gap="xs" wrap="nowrap">
        <Text fw={500} size="sm" style={{ overflowWrap: 'anywhere' }}>
          {label}
        </Text>
        <StateBadge isModified={isModified} isApplied={isApplied} />
      </Group>
      {input}
      {disabledReason && (
        <Text size="xs" c="dimmed">
          {disabledReason}
        </Text>
      )}
    </Stack>
  );
}
