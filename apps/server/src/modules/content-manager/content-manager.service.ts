import type { ContentManagerConfig } from '@plinth/shared';
import type { AppDeps } from '../../deps.js';
import { AppError } from '../../lib/app-error.js';
import type { Grants } from '../access/grants.js';
import { requireOrganization } from '../organization/organization.service.js';
import { strapiAdminLogin, strapiLocalAuth } from './content-manager.client.js';
import { loadContentManagerConfig } from './strapi-connection.service.js';

/**
 * The login link data for the embedded content-manager frame: signs in with the organization's
 * admin user. Any role on the organization may open it; the password never leaves the server.
 */
export async function createContentManagerLogin(
  deps: AppDeps,
  grants: Grants,
  organizationId: string,
): Promise<{ user: unknown; token: string }> {
  const config = await loadConfig(deps, grants, organizationId);
  return strapiAdminLogin(deps.outbound, { url: config.url, user: config.adminUser, password: config.adminPassword });
}

/** A jwt of the organization's content-manager API user, for reading content. */
export async function createContentManagerApiAuth(
  deps: AppDeps,
  grants: Grants,
  organizationId: string,
): Promise<{ jwt: string }> {
  const config = await loadConfig(deps, grants, organizationId);
  return strapiLocalAuth(deps.outbound, { url: config.url, user: config.apiUser, password: config.apiPassword });
}

async function loadConfig(deps: AppDeps, grants: Grants, organizationId: string): Promise<ContentManagerConfig> {
  await requireOrganization(deps, grants, { id: organizationId, right: 'view' });
  const config = await loadContentManagerConfig(deps, organizationId);
  if (!config) throw new AppError('ValidationError', 'The content manager URL is not configured for this organization.');
  return config;
}
