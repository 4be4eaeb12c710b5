/**
 * What the HTTP layer reports: the `traceparent` of every response (set by the app's request
 * hook), the end of each request's span, and the HTTP metrics (requests by operation and status,
 * their duration, start results, open event streams). Refused requests count too.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { startResult, type Metrics } from './metrics.js';
import type { Buckets, StatusCounts } from './plain-series.js';
import type { Tracing } from './tracing.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The `details` of the error the request was answered with, if any (the reason of a 420). */
    errorDetails?: string;
  }
}

/** Requests that reached no route (unknown paths, malformed URLs) share one label. */
const NO_ROUTE = 'none';

export function observeHttp(app: FastifyInstance, tracing: Tracing, metrics: Metrics | undefined): void {
  // Each operation's series, found once per request by its operationId.
  const counted = new Map<string, { answers: StatusCounts; duration: Buckets }>();
  const countsOf = (operation: string, metrics: Metrics) => {
    let counts = counted.get(operation);
    if (!counts) {
      counts = { answers: metrics.httpRequests.child(operation), duration: metrics.httpDuration.child(operation) };
      counted.set(operation, counts);
    }
    return counts;
  };

  // A callback hook, not an async one: it runs on every request, and a promise each is not free.
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.config.route;
    const status = reply.statusCode;
    tracing.endRequest(request.raw, route, status);
    if (metrics) {
      const operation = route?.operationId ?? NO_ROUTE;
      const counts = countsOf(operation, metrics);
      counts.answers.inc(status);
      counts.duration.observe(reply.elapsedTime / 1000);
      if (operation === 'startSession') metrics.starts.inc({ result: startResult(status, request.errorDetails) });
    }
    done();
  });

  if (!metrics) return;
  // On the event stream's route only, after authentication and validation: streams that really open.
  app.addHook('onRoute', (options) => {
    if (options.config?.route?.operationId !== 'streamEvents') return;
    const countStream = (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
      metrics.eventStreams.inc();
      reply.raw.once('close', () => metrics.eventStreams.dec());
      done();
    };
    options.preHandler = [countStream, ...[options.preHandler ?? []].flat()];
  });
}

/** Name the request's span in the response (also called for errors answered before routing). */
export function setTraceparent(tracing: Tracing, request: FastifyRequest, reply: FastifyReply): void {
  const traceparent = tracing.traceparent(request.raw);
  if (traceparent) reply.header('traceparent', traceparent);
}
