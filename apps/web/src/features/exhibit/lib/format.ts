import { OVERVIEW_TRUNCATE_CHARS, type ExhibitSetting, type SettingValue, type Status } from '@plinth/shared';
import { formatDate } from '../../../lib/format-date';
import { NO_VALUE } from '../../../lib/no-value';

/** Cuts text at the overview's limit (45 characters), marking the cut with an ellipsis. */
export function truncateText(text: string, limit = OVERVIEW_TRUNCATE_CHARS): string {
  return text.length > limit ? `${text.slice(0, limit)}…` : text;
}

/** The text of an HTML fragment, for showing rich-text values as plain text (never as HTML). */
export function htmlToText(html: string): string {
  const doc = new DOMParser().parseFromString(html, 'text/html');
  return (doc.body.textContent ?? '').replace(/\s+/g, ' ').trim();
}

/** A Date value as MM-DD-YYYY plus the time (spec section 9); text that is no date shows as it is. */
function formatDateValue(value: string): string {
  return formatDate(value, 'value', value);
}

/** A setting value as a person reads it. */
export function formatSettingValue(setting: ExhibitSetting, value: SettingValue = setting.value): string {
  if (value === null || value === '') return NO_VALUE;
  switch (setting.type) {
    case 'Toggle':
      return value === true ? 'On' : 'Off';
    case 'Dropdown':
    case 'SingleButtonGroup':
      return setting.items.find((i) => i.id === value)?.display ?? String(value);
    case 'TextAreaInput':
      return htmlToText(String(value)) || NO_VALUE;
    case 'Date':
      return formatDateValue(String(value));
    default:
      return String(value);
  }
}

/** A status value as a person reads it. */
export function formatStatusValue(status: Status): string {
  if (status.value === null || status.value === '') return NO_VALUE;
  if (status.type === 'Date') return formatDateValue(String(status.value));
  return String(status.value);
}
