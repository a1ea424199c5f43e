import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../deps.js';
import { userAdminRoutes } from './auth/user-admin.routes.js';
import { exhibitRoutes } from './exhibit/exhibit.routes.js';
import { exhibitRuntimeRoutes } from './exhibit-runtime/exhibit-runtime.routes.js';
import { hardwareRoutes } from './hardware/hardware.routes.js';
import { hardwareRuntimeRoutes } from './hardware-runtime/hardware-runtime.routes.js';
import { organizationRoutes } from './organization/organization.routes.js';
import { permissionRoutes } from './permission/permission.routes.js';
import { siteRoutes } from './site/site.routes.js';

/** Registers every REST module under the API prefix. */
export async function registerApiModules(api: FastifyInstance, deps: AppDeps): Promise<void> {
  await api.register(userAdminRoutes(deps));
  await api.register(organizationRoutes(deps));
  await api.register(siteRoutes(deps));
  await api.register(permissionRoutes(deps));
  await api.register(exhibitRoutes(deps));
  await api.register(exhibitRuntimeRoutes(deps));
  await api.register(hardwareRoutes(deps));
  await api.register(hardwareRuntimeRoutes(deps));
}
