import type { FastifyRequest } from 'fastify';
import { describeUnsafeText, findUnsafeText } from '@plinth/shared';
import { AppError } from './app-error.js';

/**
 * A preValidation hook for every route: text PostgreSQL cannot store (a NUL character, a lone
 * surrogate) in the params, query or body is refused with the 400 every validation error gives,
 * naming the field (`name: must not contain a NUL character (\u0000)`), before a schema, a
 * service or a query sees it. The rule itself is `findUnsafeText` in @plinth/shared, which the
 * sockets and the board gateway apply too.
 */
export async function refuseUnsafeText(request: FastifyRequest): Promise<void> {
  const parts = [
    ['params', request.params],
    ['querystring', request.query],
    ['body', request.body],
  ] as const;
  for (const [where, value] of parts) {
    const unsafe = findUnsafeText(value);
    if (unsafe) throw new AppError('ValidationError', describeUnsafeText(unsafe, where));
  }
}
