import type { Readable } from 'node:stream';
import type { ContentFile } from '@plinth/shared';
import type { AppDeps } from '../../deps.js';
import { AppError } from '../../lib/app-error.js';
import type { ByteRange } from '../../lib/file-store.js';

/**
 * The organization's media library in its content manager (Strapi's upload plugin): the
 * organizational files every exhibit of the organization lists and syncs, named with the '[ORG]'
 * prefix. Plinth reads them on behalf of the console and the SDK; credentials stay on the server.
 */

export type OrganizationFiles = { files: ContentFile[]; errors: string[] };

/**
 * The organizational files ('[ORG] <name>', `organizational: true`, `sha256: null`). Never
 * throws for the content manager's sake: an unreachable, slow or wrong content manager gives an
 * entry in `errors` and no files. No content manager configured: no files, no errors.
 */
export async function listOrganizationFiles(_deps: AppDeps, _organizationId: string): Promise<OrganizationFiles> {
  return { files: [], errors: [] };
}

export type OrganizationFileStream = { body: Readable; size: number; contentType: string; updatedAt: string };

/** One organizational file's bytes (all or a range), by its '[ORG]' name; NotFound when absent. */
export async function openOrganizationFile(
  _deps: AppDeps,
  _file: { organizationId: string; fileName: string; range?: ByteRange },
): Promise<OrganizationFileStream> {
  throw new AppError('NotFound', 'The organizational file was not found.');
}
