import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  OkSchema,
  TwoFactorDisableBody,
  TwoFactorEnableBody,
  TwoFactorRecoveryCodesSchema,
  TwoFactorSetupSchema,
  TwoFactorStatusSchema,
} from '@plinth/shared';
import type { AppDeps } from '../../deps.js';
import { disableTwoFactor, enableTwoFactor, getTwoFactorStatus, startTwoFactorSetup } from './two-factor.service.js';

/**
 * The signed-in user's own two-factor sign-in: state, set-up (QR code), confirmation (recovery
 * codes), turning it off. Each acts on the caller only, so it needs no grant; they stay open to a
 * user an organization makes enrol first (`allowBeforeTwoFactor`).
 */
export function twoFactorRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ['auth'];
    const config = { allowBeforeTwoFactor: true };

    app.get('/auth/two-factor', { config, schema: { tags, response: { 200: TwoFactorStatusSchema } } }, async (request) =>
      getTwoFactorStatus(deps, request.user),
    );

    app.post(
      '/auth/two-factor/setup',
      { config, schema: { tags, description: 'A new TOTP secret with its QR code; not on until /enable gets a code.', response: { 200: TwoFactorSetupSchema } } },
      async (request) => startTwoFactorSetup(deps, request.user),
    );

    app.post(
      '/auth/two-factor/enable',
      {
        config,
        schema: { tags, description: 'Confirms the set-up with a code; answers the ten recovery codes, shown once.', body: TwoFactorEnableBody, response: { 200: TwoFactorRecoveryCodesSchema } },
      },
      async (request) => enableTwoFactor(deps, request.user, request.body.code),
    );

    app.post(
      '/auth/two-factor/disable',
      {
        config,
        schema: { tags, description: 'Turns two-factor sign-in off; needs the password and a current or recovery code (throttled as sign-in).', body: TwoFactorDisableBody, response: { 200: OkSchema } },
      },
      async (request) => {
        await disableTwoFactor(deps, request.user, { ...request.body, ip: request.ip });
        return { ok: true as const };
      },
    );
  };
}
