import type { Manifest } from '@plinth/shared';
import type { AppDeps } from '../../deps.js';
import { AppError } from '../../lib/app-error.js';
import { recordExhibit } from '../logging/records.js';
import { findManifestLock, storeManifest } from './manifest.repository.js';
import { manifestStructureHash } from './manifest-structure.js';

/**
 * Stores a manifest: items are created, updated and removed by manifest id, and saved values are
 * kept wherever they still fit their setting. A locked exhibit refuses a changed structure (406).
 * Answers whether anything changed.
 */
export async function ingestManifest(deps: AppDeps, exhibitId: string, manifest: Manifest): Promise<boolean> {
  const structureHash = manifestStructureHash(manifest);
  const exhibit = await findManifestLock(deps.db, exhibitId);
  if (!exhibit) throw new AppError('NotFound', 'The exhibit does not exist.');
  if (exhibit.stored === structureHash) return false;
  if (exhibit.manifestLocked && exhibit.stored !== null) {
    recordExhibit(deps.logs, exhibitId, { eventType: 'manifest', level: 'warn', message: 'Manifest refused: the exhibit is locked and the manifest changed its structure' });
    throw new AppError('NotAcceptable', 'The exhibit is locked: its manifest structure cannot change. Unlock it in the console first.');
  }
  await storeManifest(deps.db, exhibitId, { manifest, structureHash });
  recordExhibit(deps.logs, exhibitId, { eventType: 'manifest', message: exhibit.stored === null ? 'Manifest received' : 'Manifest changed' });
  return true;
}
