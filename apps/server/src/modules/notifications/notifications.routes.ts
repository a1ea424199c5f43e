import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ExhibitNotificationsResponse, IdParams, NotificationsQuery, OkSchema, UnsubscribeQuery, UpdateNotificationsBody } from '@plinth/shared';
import type { AppDeps } from '../../deps.js';
import { listNotifications, unsubscribe, updateNotifications } from './notifications.service.js';

const tags = ['notifications'];
const base = '/exhibit-management/notifications';

/** The Notifications tab (spec 2.11, 7.1): every exhibit user's mail toggles, and changing them. */
export function notificationsRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    // The console calls the path with its trailing slash; the bare one answers the same.
    for (const path of [`${base}/`, base]) {
      app.get(
        path,
        { schema: { tags, hide: !path.endsWith('/'), querystring: NotificationsQuery, response: { 200: ExhibitNotificationsResponse } } },
        async (request) => ({ exhibitNotifications: await listNotifications(deps, await request.grants(), request.query.exhibitId) }),
      );
    }

    app.put(`${base}/:id`, { schema: { tags, params: IdParams, body: UpdateNotificationsBody, response: { 200: OkSchema } } }, async (request) => {
      await updateNotifications(deps, await request.grants(), { ...request.body, exhibitId: request.params.id });
      return { ok: true as const };
    });
  };
}

/**
 * The one-click unsubscribe link of every notification mail (public: its signed token is the
 * credential). GET is the link a reader opens; POST is what mail clients send for
 * List-Unsubscribe-Post (RFC 8058), with a form body that says nothing more than the link.
 */
export function unsubscribeRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    // RFC 8058's body is `List-Unsubscribe=One-Click`, form-encoded: accepted here and ignored.
    app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, _body, done) => done(null, undefined));
    const path = `${base}/unsubscribe`;
    const schema = { tags, querystring: UnsubscribeQuery };
    app.get(path, { schema }, async (request, reply) => reply.type('text/plain; charset=utf-8').send(await unsubscribe(deps, request.query.token)));
    app.post(path, { schema }, async (request, reply) => reply.type('text/plain; charset=utf-8').send(await unsubscribe(deps, request.query.token)));
  };
}
