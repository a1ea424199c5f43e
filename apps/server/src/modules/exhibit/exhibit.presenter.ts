import type { Exhibit, OpMode, Role } from '@plinth/shared';
import type { ExhibitRecord, LinkedExhibit } from './exhibit.repository.js';
import { presentSitePlaced } from '../site/site-placed.presenter.js';

/** Off while the exhibit is offline, whatever it last reported (spec: offline exhibits read Off). */
export function displayedOpMode(exhibit: { online: boolean; opMode: OpMode }): OpMode {
  return exhibit.online ? exhibit.opMode : 'Off';
}

/**
 * An exhibit as REST and socket answers show it. `leader` and `followers` hold only the
 * exhibits the caller may see (the leader's id stays, its name does not leak).
 */
export function presentExhibit(
  record: ExhibitRecord,
  { role, leader, followers }: { role: Role; leader: LinkedExhibit | null; followers: LinkedExhibit[] },
): Exhibit {
  const opMode = displayedOpMode(record);
  return presentSitePlaced(record, {
    mqttPath: record.mqttPath,
    leaderId: record.leaderId,
    leader: leader ? { id: leader.id, name: leader.name } : null,
    manifestLocked: record.manifestLocked,
    online: record.online,
    opMode,
    op_mode: opMode === 'On',
    lastOnlineChange: record.lastOnlineChange?.toISOString() ?? null,
    followers: followers.map((f) => ({ id: f.id, name: f.name, online: f.online, opMode: displayedOpMode(f) })),
    role,
    createdAt: record.createdAt.toISOString(),
    updatedAt: record.updatedAt.toISOString(),
  });
}
