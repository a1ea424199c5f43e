import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { MQTT_DEFAULT_PORT, OkSchema, SupportTicketBody } from '@plinth/shared';
import type { AppDeps } from '../../deps.js';
import { requireUser } from '../../lib/request-user.js';
import { supportTicketMail } from '../../mail/templates.js';

export const PublicConfigSchema = z.object({
  supportEmail: z.string(),
  /** Where the product analytics client sends events; null keeps it a no-op. */
  analyticsUrl: z.string().nullable(),
  /** The MQTT port boards connect to, for the help pages. */
  mqttPort: z.number().int(),
  reportUrlPrefix: z.string(),
});

export function supportRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/config', { schema: { tags: ['support'], response: { 200: PublicConfigSchema } } }, async () => ({
      supportEmail: deps.config.SUPPORT_EMAIL,
      analyticsUrl: deps.config.ANALYTICS_URL ?? null,
      // The port the embedded broker really listens on (MQTT_PORT=0 picks a free one).
      mqttPort: deps.config.MQTT_URL ? MQTT_DEFAULT_PORT : (deps.hardwareGateway.mqttPort ?? deps.config.MQTT_PORT),
      reportUrlPrefix: deps.config.REPORT_URL_PREFIX,
    }));

    app.post(
      '/support/ticket',
      { config: { rateLimit: { max: 10, timeWindow: '1 minute' } }, schema: { tags: ['support'], body: SupportTicketBody, response: { 200: OkSchema } } },
      async (request) => {
        const user = requireUser(request);
        const name = `${user.firstName} ${user.lastName}`.trim() || user.email;
        await deps.mailer.send(
          supportTicketMail(deps.config.SUPPORT_EMAIL, { email: user.email, name }, request.body.subject, request.body.description),
        );
        return { ok: true as const };
      },
    );
  };
}
