import type { HeartbeatMessage, LogLevel, PropValue, RealtimeEventOf } from '@plinth/shared';

/**
 * The console events of a hardware unit (packages/shared/src/realtime.ts), built from what the
 * board sent and what the server knows of it.
 */

export function presentHardwarePresenceChanged(change: { hardwareId: string; online: boolean }): RealtimeEventOf<'hardware.presenceChanged'> {
  return { type: 'hardware.presenceChanged', hardwareId: change.hardwareId, online: change.online };
}

export function presentDebugChanged(change: { hardwareId: string; controlDebug: boolean }): RealtimeEventOf<'hardware.debugChanged'> {
  return { type: 'hardware.debugChanged', hardwareId: change.hardwareId, controlDebug: change.controlDebug };
}

/** A heartbeat as it arrived at `at`. */
export function presentHeartbeat(beat: { hardwareId: string; heartbeat: HeartbeatMessage; at: Date }): RealtimeEventOf<'hardware.statusChanged'> {
  const { voltage, temp, uptime, exhibitState, exhibitIP } = beat.heartbeat;
  return { type: 'hardware.statusChanged', hardwareId: beat.hardwareId, voltage, temp, uptime, exhibitState, exhibitIP, updatedAt: beat.at.toISOString() };
}

/** A prop value, named by the peripheral the board announced it with. */
export function presentPropChanged(change: {
  hardwareId: string;
  peripheralId: string;
  periphName: string;
  propName: string;
  propType: string;
  value: PropValue;
}): RealtimeEventOf<'hardware.propChanged'> {
  return { type: 'hardware.propChanged', ...change };
}

/** A live log line of the board: what it logged (`log`) or what the server saw happen (`firmware`). */
export function presentHardwareLogged(line: {
  hardwareId: string;
  level: LogLevel;
  message: string;
  eventType: string;
  at: Date;
}): RealtimeEventOf<'hardware.logged'> {
  return {
    type: 'hardware.logged',
    hardwareId: line.hardwareId,
    log: { level: line.level, message: line.message, eventType: line.eventType, createdAt: line.at.toISOString() },
  };
}
