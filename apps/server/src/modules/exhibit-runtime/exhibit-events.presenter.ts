import type { LogLevel, OpMode, RealtimeEventOf, SettingValue, StatusValue } from '@plinth/shared';

/**
 * The console events of an exhibit (packages/shared/src/realtime.ts), built from what the server
 * knows: dates become ISO strings, stored names become the contract's keys.
 */

/** The exhibit's SDK connected or went silent at `at`. */
export function presentPresenceChanged(change: { exhibitId: string; online: boolean; at: Date }): RealtimeEventOf<'exhibit.presenceChanged'> {
  return { type: 'exhibit.presenceChanged', exhibitId: change.exhibitId, online: change.online, lastOnlineChange: change.at.toISOString() };
}

export function presentOpModeChanged(change: { exhibitId: string; opMode: OpMode }): RealtimeEventOf<'exhibit.opModeChanged'> {
  return { type: 'exhibit.opModeChanged', exhibitId: change.exhibitId, opMode: change.opMode };
}

export function presentStatusChanged(change: { exhibitId: string; statusId: string; value: StatusValue }): RealtimeEventOf<'exhibit.statusChanged'> {
  return { type: 'exhibit.statusChanged', exhibitId: change.exhibitId, statusId: change.statusId, value: change.value };
}

/** A setting saved in the console (`applied: false`) or acknowledged by the exhibit (`applied: true`). */
export function presentSettingChanged(change: {
  exhibitId: string;
  settingId: string;
  value: SettingValue;
  applied: boolean;
  version: number;
}): RealtimeEventOf<'exhibit.settingChanged'> {
  const { exhibitId, settingId, value, applied, version } = change;
  return { type: 'exhibit.settingChanged', exhibitId, settingId, value, applied, version };
}

/** A live log line of the exhibit: what it logged with `logger.*` (its event type is its level) or what the server saw happen (online, opMode…). */
export function presentExhibitLogged(line: {
  exhibitId: string;
  level: LogLevel;
  message: string;
  eventType: string;
  at: Date;
}): RealtimeEventOf<'exhibit.logged'> {
  return {
    type: 'exhibit.logged',
    exhibitId: line.exhibitId,
    log: { level: line.level, message: line.message, eventType: line.eventType, createdAt: line.at.toISOString() },
  };
}
