import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  StrapiAuthBody,
  StrapiAuthResponse,
  StrapiContentListResponse,
  StrapiContentQuery,
  StrapiLoginQuery,
  StrapiLoginResponse,
} from '@plinth/shared';
import type { AppDeps } from '../../deps.js';
import { createContentManagerApiAuth, createContentManagerLogin } from './content-manager.service.js';
import { listStrapiContent } from './strapi-content.service.js';

/** The organization's external content manager (Strapi): admin login link, API jwt, and the entries StrapiContent settings offer. */
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

    // A failure answers the spec's message with `details.reason` ('noUrl', 'noJwt' or 'options').
    app.get(
      '/org-management/organization/setting/strapi/content',
      { schema: { tags, querystring: StrapiContentQuery, response: { 200: StrapiContentListResponse } } },
      async (request) => listStrapiContent(deps, await request.grants(), request.query),
    );
  };
}
