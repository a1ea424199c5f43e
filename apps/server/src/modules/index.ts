import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../deps.js';
import { AppError } from '../lib/app-error.js';
import { auditRoutes } from './audit/audit.routes.js';
import { authRoutes } from './auth/auth.routes.js';
import { signInRoutes } from './auth/sign-in.routes.js';
import { authenticated } from './auth/authenticated.js';
import { currentUserRoutes } from './auth/current-user.routes.js';
import { twoFactorRoutes } from './auth/two-factor.routes.js';
import { userAdminRoutes } from './auth/user-admin.routes.js';
import { apiKeyRoutes } from './api-keys/api-keys.routes.js';
import { filesDownloadRoutes } from './content/files-download.routes.js';
import { filesRoutes } from './content/files.routes.js';
import { exhibitRoutes } from './exhibit/exhibit.routes.js';
import { exhibitAuthenticateRoutes } from './exhibit-runtime/exhibit-authenticate.routes.js';
import { exhibitRuntimeRoutes } from './exhibit-runtime/exhibit-runtime.routes.js';
import { exhibitSettingListRoutes } from './exhibit-runtime/exhibit-setting-list.routes.js';
import { exhibitTokenRoutes } from './exhibit-runtime/exhibit-tokens.routes.js';
import { hardwareRoutes } from './hardware/hardware.routes.js';
import { firmwareDownloadRoutes } from './hardware-runtime/firmware-download.routes.js';
import { firmwareRoutes } from './hardware-runtime/firmware.routes.js';
import { hardwareCommandRoutes } from './hardware-runtime/hardware-commands.routes.js';
import { hardwareTokenRoutes } from './hardware-runtime/hardware-tokens.routes.js';
import { loggingRoutes } from './logging/logging.routes.js';
import { notificationsRoutes, unsubscribeRoutes } from './notifications/notifications.routes.js';
import { reportingRoutes } from './logging/reporting.routes.js';
import { schedulingRoutes } from './scheduling/scheduling.routes.js';
import { organizationRoutes } from './organization/organization.routes.js';
import { exhibitPermissionRoutes } from './permission/exhibit-permission.routes.js';
import { permissionRoutes } from './permission/permission.routes.js';
import { settingsRoutes } from './settings/settings.routes.js';
import { siteRoutes } from './site/site.routes.js';
import { publicConfigRoutes } from './support/public-config.routes.js';
import { supportRoutes } from './support/support.routes.js';

/**
 * The routes open to everyone: sign-in (password, then the two-factor code), sign-out, account links and single sign-on; the public
 * config; the exhibit SDK's and the boards' own credentials (exhibit token, Basic auth); the
 * file download, which an exhibit calls with Basic auth and a console with its session (the
 * download service checks either); the one-click unsubscribe link of notification mails (its
 * signed token).
 */
const PUBLIC_ROUTES = [signInRoutes, authRoutes, publicConfigRoutes, exhibitAuthenticateRoutes, firmwareDownloadRoutes, filesDownloadRoutes, unsubscribeRoutes];

/**
 * Routes only a person may call (a signed-in user; an API key answers 403): who they are, their
 * two-factor sign-in, their notifications and support tickets, and managing users, grants and API
 * keys, which a key never does (issue 20).
 */
const PERSON_ROUTES = [
  currentUserRoutes,
  twoFactorRoutes,
  userAdminRoutes,
  supportRoutes,
  permissionRoutes,
  exhibitPermissionRoutes,
  apiKeyRoutes,
  notificationsRoutes,
];

/** Everything else: a signed-in user, or an organization's API key within its role and scope. */
const SIGNED_IN_ROUTES = [
  organizationRoutes,
  siteRoutes,
  settingsRoutes,
  exhibitRoutes,
  exhibitTokenRoutes,
  exhibitRuntimeRoutes,
  exhibitSettingListRoutes,
  hardwareRoutes,
  hardwareTokenRoutes,
  hardwareCommandRoutes,
  firmwareRoutes,
  filesRoutes,
  loggingRoutes,
  reportingRoutes,
  schedulingRoutes,
  auditRoutes,
];

/**
 * Every REST module under the API prefix (/api/v1). Authentication is declared here, once: the
 * public routes are listed above, every other route sits in an `authenticated` group, which
 * answers 401 to a caller who is neither signed in nor holding an API key (and 403 to a key in
 * the person-only group).
 */
export function apiRoutes(deps: AppDeps) {
  return async (api: FastifyInstance): Promise<void> => {
    for (const routes of PUBLIC_ROUTES) await api.register(routes(deps));
    await api.register(
      authenticated(
        async (app) => {
          for (const routes of PERSON_ROUTES) await app.register(routes(deps));
        },
        { apiKeys: false },
      ),
    );
    await api.register(
      authenticated(
        async (app) => {
          for (const routes of SIGNED_IN_ROUTES) await app.register(routes(deps));
        },
        { apiKeys: true },
      ),
    );
    api.all('/*', async () => {
      throw new AppError('NotFound');
    });
  };
}
