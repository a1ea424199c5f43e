import { PeripheralSchema, type Hardware, type Peripheral, type Role } from '@plinth/shared';
import { z } from 'zod';
import type { HardwareRecord } from './hardware.repository.js';
import { presentSitePlaced } from '../site/site-placed.presenter.js';

const PeripheralList = z.array(PeripheralSchema);

/** The peripherals a board announced; anything malformed in storage reads as none. */
export function peripheralsOf(stored: unknown): Peripheral[] {
  const parsed = PeripheralList.safeParse(stored);
  return parsed.success ? parsed.data : [];
}

/** A hardware unit as REST and socket answers show it, with the caller's effective role. */
export function presentHardware(record: HardwareRecord, role: Role): Hardware {
  const peripherals = peripheralsOf(record.peripherals);
  return presentSitePlaced(record, {
    exhibitId: record.exhibitId,
    exhibitName: record.exhibitName,
    online: record.online,
    connected: record.exhibitId !== null,
    controlDebug: record.controlDebug,
    ip: record.ip,
    mac: record.mac,
    plinth_fw: record.plinthFw,
    user_fw: record.userFw,
    numPeripherals: peripherals.length,
    voltage: record.voltage,
    temp: record.temp,
    uptime: record.uptime,
    exhibitState: record.exhibitState,
    exhibitIP: record.exhibitIp,
    peripherals,
    firmware: null,
    invalidMessages: record.invalidMessages,
    lastInvalidReason: record.lastInvalidReason,
    lastInvalidAt: record.lastInvalidAt?.toISOString() ?? null,
    role,
    createdAt: record.createdAt.toISOString(),
    updatedAt: record.updatedAt.toISOString(),
  });
}
