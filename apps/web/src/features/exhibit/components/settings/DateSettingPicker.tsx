import { DateTimePicker } from '@mantine/dates';
import type { SettingValue } from '@plinth/shared';
import { DATE_FORMATS } from '../../../../lib/format-date';

/** 'YYYY-MM-DD HH:mm:ss' in local time, as the date picker gives it, to an ISO string. */
function pickerToIso(value: string | null): string | null {
  if (!value) return null;
  const date = new Date(value.replace(' ', 'T'));
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

export type DateSettingPickerProps = {
  /** Shown as the field's label, or only as its accessible name (`labelHidden`) where the row shows it. */
  label: string;
  labelHidden?: boolean;
  value: SettingValue;
  disabled: boolean;
  onChange: (value: string | null) => void;
};

/** A Date setting's value (an ISO string or null) edited with a date and time picker, MM-DD-YYYY. */
export function DateSettingPicker({ label, labelHidden = false, value, disabled, onChange }: DateSettingPickerProps) {
  return (
    <DateTimePicker
      {...(labelHidden ? { 'aria-label': label } : { label })}
      value={typeof value === 'string' && value ? new Date(value) : null}
      valueFormat={DATE_FORMATS.picker}
      clearable
      disabled={disabled}
      onChange={(v) => onChange(pickerToIso(v))}
    />
  );
}
