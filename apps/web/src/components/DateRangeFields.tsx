import { Group } from '@mantine/core';
import { DateTimePicker } from '@mantine/dates';
import { DATE_FORMATS } from '../lib/format-date';
import { parsePickerValue, withEnd, withStart, type DateRange } from '../lib/date-range';

export type DateRangeFieldsProps = {
  value: DateRange;
  onChange: (range: DateRange) => void;
  /** The minutes the time picker steps by (the reports tab: 10). */
  minutesStep?: number;
  disabled?: boolean;
};

/**
 * The Start and End date-time pickers of the logs and reports tabs (spec section 4): moving the
 * start past the end makes the end follow it, and the end cannot be set before the start.
 */
export function DateRangeFields({ value, onChange, minutesStep, disabled }: DateRangeFieldsProps) {
  const timePickerProps = minutesStep ? { minutesStep } : undefined;
  return (
    <Group gap="sm" align="flex-end" wrap="wrap">
      <DateTimePicker
        label="Start"
        value={value.start}
        valueFormat={DATE_FORMATS.picker}
        onChange={(next) => {
          const start = parsePickerValue(next);
          if (start) onChange(withStart(value, start));
        }}
        timePickerProps={timePickerProps}
        submitButtonProps={{ 'aria-label': 'Apply start' }}
        disabled={disabled}
        w={220}
      />
      <DateTimePicker
        label="End"
        value={value.end}
        minDate={value.start}
        valueFormat={DATE_FORMATS.picker}
        onChange={(next) => {
          const end = parsePickerValue(next);
          if (end) onChange(withEnd(value, end));
        }}
        timePickerProps={timePickerProps}
        submitButtonProps={{ 'aria-label': 'Apply end' }}
        disabled={disabled}
        w={220}
      />
    </Group>
  );
}
