import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { OkSchema, SupportTicketBody } from '@plinth/shared';
import type { AppDeps } from '../../deps.js';
import { supportTicketMail } from '../../mail/templates.js';

/** Support tickets from signed-in users, mailed to the installation's support address. */
export function supportRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/support/ticket',
      { config: { rateLimit: { max: 10, timeWindow: '1 minute' } }, schema: { tags: ['support'], body: SupportTicketBody, response: { 200: OkSchema } } },
      async (request) => {
        const { user } = request;
        const name = `${user.firstName} ${user.lastName}`.trim() || user.email;
        await deps.mailer.send(supportTicketMail({ to: deps.config.SUPPORT_EMAIL, from: { email: user.email, name }, ...request.body }));
        return { ok: true as const };
      },
    );
  };
}
