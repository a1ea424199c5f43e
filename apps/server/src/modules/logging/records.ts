import type { EXHIBIT_EVENT_TYPES, HARDWARE_EVENT_TYPES, LogLevel } from '@plinth/shared';
import type { LogRecorder } from './ports.js';

/**
 * The server's own record of what happened to a device, as the services write it: one event type
 * of the contract's lists (EXHIBIT_EVENT_TYPES, HARDWARE_EVENT_TYPES) and a readable message.
 */

export type ExhibitEventType = (typeof EXHIBIT_EVENT_TYPES)[number];
export type HardwareEventType = (typeof HARDWARE_EVENT_TYPES)[number];

type Entry<T> = { eventType: T; message: string; level?: LogLevel };

export function recordExhibit(logs: LogRecorder, exhibitId: string, entry: Entry<ExhibitEventType>): void {
  logs.record({ source: 'exhibit', deviceId: exhibitId, level: entry.level ?? 'info', eventType: entry.eventType, message: entry.message });
}

export function recordHardware(logs: LogRecorder, hardwareId: string, entry: Entry<HardwareEventType>): void {
  logs.record({ source: 'hardware', deviceId: hardwareId, level: entry.level ?? 'info', eventType: entry.eventType, message: entry.message });
}

/** A value as a log message shows it: JSON text, cut short. */
export function shownValue(value: unknown): string {
  const text = JSON.stringify(value) ?? 'null';
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}
