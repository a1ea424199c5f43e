import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { StrapiAuthBody, StrapiAuthResponse, StrapiLoginQuery, StrapiLoginResponse } from '@plinth/shared';
import type { AppDeps } from '../../deps.js';
import { createContentManagerApiAuth, createContentManagerLogin } from './content-manager.service.js';

/** The organization's external content manager (Strapi): admin login link and API jwt. */
export function contentManagerRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ['content-manager'];

    app.post(
      '/org-management/organization/setting/strapi/login',
      { schema: { tags, querystring: StrapiLoginQuery, response: { 200: StrapiLoginResponse } } },
      async (request) => createContentManagerLogin(deps, await request.grants(), request.query.organizationId),
    );

    app.post(
      '/org-management/organization/setting/strapi/auth',
      { schema: { tags, body: StrapiAuthBody, response: { 200: StrapiAuthResponse } } },
      async (request) => createContentManagerApiAuth(deps, await request.grants(), request.body.organizationId),
    );
  };
}
