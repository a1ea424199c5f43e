import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../deps.js';
import { AppError } from '../lib/app-error.js';
import { authRoutes } from './auth/auth.routes.js';
import { signInRoutes } from './auth/sign-in.routes.js';
import { authenticated } from './auth/authenticated.js';
import { currentUserRoutes } from './auth/current-user.routes.js';
import { twoFactorRoutes } from './auth/two-factor.routes.js';
import { userAdminRoutes } from './auth/user-admin.routes.js';
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

/** Everything else: each needs a signed-in user. */
const SIGNED_IN_ROUTES = [
  currentUserRoutes,
  twoFactorRoutes,
  userAdminRoutes,
  supportRoutes,
  organizationRoutes,
  siteRoutes,
  settingsRoutes,
  permissionRoutes,
  exhibitPermissionRoutes,
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
  notificationsRoutes,
];

/**
 * Every REST module under the API prefix (/api/v1). Authentication is declared here, once: the
 * public routes are listed above, every other route sits in the `authenticated` group, which
 * answers 401 to a caller who is not signed in.
 */
export function apiRoutes(deps: AppDeps) {
  return async (api: FastifyInstance): Promise<void> => {
    for (const routes of PUBLIC_ROUTES) await api.register(routes(deps));
    await api.register(
      authenticated(async (app) => {
        for (const routes of SIGNED_IN_ROUTES) await app.register(routes(deps));
      }),
    );
    api.all('/*', async () => {
      throw new AppError('NotFound');
    });
  };
}
