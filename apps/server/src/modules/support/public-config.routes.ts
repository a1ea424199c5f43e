import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { MQTT_DEFAULT_PORT, PublicConfigSchema } from '@plinth/shared';
import type { AppDeps } from '../../deps.js';

/** GET /config: what the console needs to know about this installation, signed in or not. */
export function publicConfigRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/config', { schema: { tags: ['support'], response: { 200: PublicConfigSchema } } }, async () => ({
      supportEmail: deps.config.SUPPORT_EMAIL,
      analyticsUrl: deps.config.ANALYTICS_URL ?? null,
      // The port the embedded broker really listens on (MQTT_PORT=0 picks a free one).
      mqttPort: deps.config.MQTT_URL ? MQTT_DEFAULT_PORT : (deps.hardwareGateway.mqttPort ?? deps.config.MQTT_PORT),
      reportUrlPrefix: deps.config.REPORT_URL_PREFIX,
      maxFileBytes: deps.config.MAX_FILE_BYTES,
    }));
  };
}
