import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
import { describeFailure } from './describe-failure.js';

/** The path a request asked for, without its query string (which carries submitted values). */
function pathOf(request: FastifyRequest): string {
  return request.url.split('?')[0]!;
}

/** Who asked for what, without values: method, route pattern and path. */
function describeRequest(request: FastifyRequest): Record<string, unknown> {
  return { method: request.method, route: request.routeOptions.url, path: pathOf(request), remoteAddress: request.ip };
}

/** Logs a request that answered 500 or above: method, route, status and the failure, no values. */
export function logFailedRequest(request: FastifyRequest, status: number, error: unknown): void {
  request.log.error({ request: describeRequest(request), status, failure: describeFailure(error) }, 'request failed');
}

/**
 * Fastify's request log lines (on at LOG_LEVEL debug or trace), written without the values a
 * request carried: Fastify's own lines log the whole URL, query string included, and errors
 * through the standard serializer, message included.
 */
export class RequestLogController extends LogController {
  override incomingRequest(request: FastifyRequest): void {
    if (this.isLogDisabled(request)) return;
    request.log.info({ request: describeRequest(request) }, 'incoming request');
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    const res = { statusCode: reply.statusCode };
    if (error) reply.log.error({ res, failure: describeFailure(error), responseTime: reply.elapsedTime }, 'request errored');
    else reply.log.info({ res, responseTime: reply.elapsedTime }, 'request completed');
  }

  override defaultErrorLog(error: Error, request: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    const level = reply.statusCode >= 500 ? 'error' : 'info';
    reply.log[level]({ request: describeRequest(request), res: { statusCode: reply.statusCode }, failure: describeFailure(error) }, 'request failed');
  }

  override routeNotFound(request: FastifyRequest): void {
    if (this.isLogDisabled(request)) return;
    request.log.info(`Route ${request.method}:${pathOf(request)} not found`);
  }

  override writeHeadError(error: Error, request: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    reply.log.warn({ request: describeRequest(request), failure: describeFailure(error) }, 'writing the response head failed');
  }
}
