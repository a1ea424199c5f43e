import { NumberInput, Select, Switch, TextInput } from '@mantine/core';
import type { ExhibitSetting, SettingValue } from '@plinth/shared';
import { pendingValueError } from '../../lib/settings-tree';
import { DateSettingPicker } from '../settings/DateSettingPicker';
import { FileSelectionField } from '../settings/FileSelectionField';
import { RichTextSetting } from '../settings/RichTextSetting';

export type ScheduleSettingInputProps = {
  setting: ExhibitSetting;
  value: SettingValue;
  disabled: boolean;
  onChange: (value: SettingValue) => void;
};

/** The value a scheduled event gives a setting, with the input of the setting's type (its limits checked). */
export function ScheduleSettingInput({ setting, value, disabled, onChange }: ScheduleSettingInputProps) {
  const label = `${setting.display} value`;
  const items = [...setting.items].sort((a, b) => a.order - b.order).map((i) => ({ value: i.id, label: i.display }));
  switch (setting.type) {
    case 'Toggle':
      return <Switch label={label} checked={value === true} disabled={disabled} onChange={(e) => onChange(e.currentTarget.checked)} />;
    case 'IntegerInput':
      return (
        <NumberInput
          label={label}
          value={typeof value === 'number' ? value : ''}
          allowDecimal={false}
          min={setting.min ?? undefined}
          max={setting.max ?? undefined}
          disabled={disabled}
          error={pendingValueError(setting, value)}
          onChange={(v) => onChange(typeof v === 'number' ? v : v === '' || v === '-' ? null : Number(v))}
        />
      );
    case 'Dropdown':
    case 'SingleButtonGroup':
      return <Select label={label} data={items} value={typeof value === 'string' ? value : null} allowDeselect={false} disabled={disabled} onChange={(v) => v !== null && onChange(v)} />;
    case 'TextAreaInput':
      return <RichTextSetting label={label} value={typeof value === 'string' ? value : ''} disabled={disabled} onChange={onChange} />;
    case 'Date':
      return <DateSettingPicker label={label} value={value} disabled={disabled} onChange={onChange} />;
    case 'FileSelection':
      return <FileSelectionField label={label} value={value} disabled={disabled} error={pendingValueError(setting, value)} onChange={onChange} />;
    default:
      return <TextInput label={label} value={typeof value === 'string' || typeof value === 'number' ? String(value) : ''} disabled={disabled} onChange={(e) => onChange(e.currentTarget.value)} />;
  }
}
