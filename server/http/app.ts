/**
 * The HTTP layer: registers one Fastify route per entry of the generated route table,
 * authenticates with the scopes the table names, validates with the spec's schemas, calls the
 * handler for the operationId and sends its typed reply. Every error leaves through errorBody().
 */
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { Readable } from 'node:stream';
import { resolve } from 'node:path';
import Fastify, { LogController, type FastifyError, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import type { Handlers } from '../../generated/handlers.js';
import { apiVersion, routes, schemas } from '../../generated/routes.js';
import type { Operators } from '../domain/operators.js';
import { isStoreBusy, isStoreFull, isStoreUnreachable } from '../health.js';
import type { AuthResult, Tokens } from '../domain/tokens.js';
import { observeHttp, setTraceparent } from '../observability/http-observer.js';
import type { Metrics } from '../observability/metrics.js';
import { Tracing } from '../observability/tracing.js';
import { authenticatePanel } from './admin/admin-auth.js';
import { registerAdminPanel } from './admin/admin-panel.js';
import { AllowedMethods } from './allowed-methods.js';
import { authenticateHeader, describeAuthFailure } from './auth.js';
import { ConnectionsPerAddress } from './connections-per-address.js';
import type { Credentials, RequestContext } from './context.js';
import { handlerContext, pathOf } from './handler-context.js';
import { echoed, errorBody, HttpFailure, statusOf, type ErrorBody, type ErrorCode, type ErrorExtras } from './errors.js';
import type { OperationId, RouteDefinition } from './operation.js';
import { jsonBodyText } from './json-body-text.js';
import { parseQueryString } from './query-string.js';
import { requestLoggerFactory } from './request-logger.js';
import {
  bodyLimitOf,
  DEFAULT_BODY_LIMIT_BYTES,
  DEFAULT_SERVER_LIMITS,
  MAX_JSON_DEPTH,
  nestsDeeperThan,
  requestLogFields,
  type ServerLimits,
} from './request-limits.js';
import { compileValidator, violationsOf, type HttpPart } from './validation.js';
import { sentFromScratch } from './scratch-reply.js';
import { cutWhenStalled, DEFAULT_STALLED_ANSWER_MS } from './stalled-answers.js';
import { buildSerializer } from './serializers.js';

/** The API reference built by `npm run docs` (Redocly, one self-contained HTML file). */
export const DOCS_FILE = resolve(import.meta.dirname, '../../docs/api/index.html');

declare module 'fastify' {
  interface FastifyRequest {
    /** Who is calling, as the operation's security scheme says; set by the onRequest hook. */
    credentials?: Credentials;
  }
  interface FastifyContextConfig {
    route?: RouteDefinition;
  }
}

export interface AppDependencies {
  tokens: Tokens;
  operators: Operators;
  handlers: Handlers;
  /** Honour X-Sandbox-Status (the sandbox's errors on demand). */
  sandbox?: boolean;
  logger?: FastifyServerOptions['logger'];
  serverLimits?: ServerLimits;
  /** Proxies whose X-Forwarded-For is believed (TRUST_PROXY). */
  trustProxy?: string[];
  /** Trace context per request (its trace id is the request id); default: not exported. */
  tracing?: Tracing;
  /** Where HTTP requests are counted; none: not counted. */
  metrics?: Metrics;
}

type AnyHandler = (request: unknown, context: RequestContext & Credentials) => Promise<{
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}>;

const codeOfStatus = new Map<number, ErrorCode>(Object.entries(statusOf).map(([code, status]) => [status, code as ErrorCode]));

/** The sandbox's error on demand: a documented error status of this operation, if one was asked for. */
function simulatedError(request: FastifyRequest, route: RouteDefinition): ErrorCode | undefined {
  const asked = Number(request.headers['x-sandbox-status']);
  const code = codeOfStatus.get(asked);
  return code && route.responses[String(asked)] ? code : undefined;
}

/** The request body's content coding, when it has one other than identity (RFC 9110: 415 when unsupported). */
function contentEncodingOf(request: FastifyRequest): string | undefined {
  const encoding = request.headers['content-encoding']?.trim().toLowerCase();
  return encoding === undefined || encoding === '' || encoding === 'identity' ? undefined : encoding;
}

const BEARER_CHALLENGE = 'Bearer realm="session-host"';

/** Node has no reason phrase for 420; without one the status line says `420 unknown`. */
const REASON_420 = 'Capacity Unavailable';

function sendError(request: FastifyRequest, reply: FastifyReply, body: ErrorBody, headers: Record<string, string> = {}) {
  request.errorDetails = body.details;
  const log = body.statusCode >= 500 ? request.log.error.bind(request.log) : request.log.info.bind(request.log);
  log({ identifier: body.identifier, code: body.code, details: body.details }, body.message);
  if (body.statusCode === 420) reply.raw.statusMessage = REASON_420;
  // RFC 9110: a 401 carries a challenge (some clients take one without it for a protocol error); the panel's cookie has no scheme to name.
  if (body.statusCode === 401 && request.routeOptions.config?.route?.security === 'bearer') reply.header('WWW-Authenticate', BEARER_CHALLENGE);
  // API-Version here too: errors Fastify raises before routing skip the onRequest hook.
  return reply.code(body.statusCode).headers({ 'API-Version': apiVersion, 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'no-store', ...headers }).type('application/json').send(body);
}

function isErrorBody(body: unknown): body is ErrorBody {
  return typeof body === 'object' && body !== null && 'code' in body && 'identifier' in body;
}

function replyError(request: FastifyRequest, reply: FastifyReply, code: ErrorCode, extras?: ErrorExtras) {
  return sendError(request, reply, errorBody(code, { requestId: request.id, path: pathOf(request) }, extras));
}

/** Retry-After on a 503: the store was busy (a full pool, a long-held row lock), typically for a moment. */
export const BUSY_RETRY_AFTER_SECONDS = 2;
/** Retry-After on a 503 for a full disk: space comes back when an operator (or the retention purge) frees it, not in a moment. */
const FULL_RETRY_AFTER_SECONDS = 10;
/** Retry-After on a 503 for a database that could not be reached: a restart or a failover takes seconds. */
const UNREACHABLE_RETRY_AFTER_SECONDS = 5;

/**
 * A store failure that did nothing of the request and may pass when it is sent again: answered
 * 503 with Retry-After, never the 500 of a bug. Busy is expected under load (not logged here);
 * a full disk or an unreachable database is logged at warn (and makes the service degraded).
 */
function storeRefusal(error: Error): { details: string; retryAfterSeconds: number; warn: boolean } | undefined {
  if (isStoreBusy(error)) return { details: `${error.message}; retry after Retry-After seconds`, retryAfterSeconds: BUSY_RETRY_AFTER_SECONDS, warn: false };
  if (isStoreFull(error)) {
    return { details: "the service's storage is full: nothing of this request was kept; retry after Retry-After seconds", retryAfterSeconds: FULL_RETRY_AFTER_SECONDS, warn: true };
  }
  if (isStoreUnreachable(error)) {
    return { details: 'the database could not be reached: nothing of this request was done; retry after Retry-After seconds', retryAfterSeconds: UNREACHABLE_RETRY_AFTER_SECONDS, warn: true };
  }
  return undefined;
}

/** An error a handler or Fastify raised, as the spec's error that answers it. */
function classify(error: FastifyError, limit: number): { code: ErrorCode; extras: ErrorExtras; headers?: Record<string, string>; warn?: boolean } {
  if (error instanceof HttpFailure) return { code: error.code, extras: error.extras };
  const refusal = storeRefusal(error);
  if (refusal) {
    return { code: 'SERVICE_UNAVAILABLE', extras: { details: refusal.details }, headers: { 'Retry-After': String(refusal.retryAfterSeconds) }, warn: refusal.warn };
  }
  if (error.validation && error.validationContext === 'params') {
    // A path parameter of the wrong shape names nothing that exists.
    return { code: 'RESOURCE_NOT_FOUND', extras: { details: 'no such resource: the id in the path is malformed' } };
  }
  if (error.validation) {
    return {
      code: 'INVALID_REQUEST',
      extras: { violations: violationsOf(error.validation as never, error.validationContext ?? 'body') },
    };
  }
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return { code: 'PAYLOAD_TOO_LARGE', extras: { details: `body exceeds ${limit} bytes` } };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return { code: 'UNSUPPORTED_MEDIA_TYPE', extras: { details: 'expected application/json' } };
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return {
        code: 'INVALID_REQUEST',
        extras: { violations: [{ field: 'body', description: 'must be a JSON document' }] },
      };
  }
  if (error instanceof SyntaxError || (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500)) {
    // Any other client error Fastify detects (bad content length, bad JSON) is a malformed request.
    return { code: 'INVALID_REQUEST', extras: { violations: [{ field: 'request', description: error.message }] } };
  }
  return { code: 'INTERNAL_ERROR', extras: {} };
}

/**
 * A request Node's HTTP parser refused before Fastify saw it (malformed request line or header,
 * headers over the limit, too slow): answered on the socket in the spec's error body, while
 * the socket can still take an answer.
 */
function answerClientError(error: Error & { code?: string }, socket: Socket, log: (body: ErrorBody) => void): void {
  if (!socket.writable || error.code === 'ECONNRESET') {
    socket.destroy();
    return;
  }
  const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
  const details = status === 431 ? 'request headers exceed 16 KiB' : status === 408 ? 'request not received in time' : `the request could not be parsed (${error.code ?? 'malformed'})`;
  // An identifier in the shape of the others (a trace id): this request never reached tracing.
  const body: ErrorBody = { ...errorBody('BAD_REQUEST', { requestId: randomBytes(16).toString('hex'), path: '' }, { details }), statusCode: status };
  log(body);
  const text = JSON.stringify(body);
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(text)}\r\nAPI-Version: ${apiVersion}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n${text}`,
  );
}

function jsonResponseSchemas(route: RouteDefinition): Record<string, object> {
  const schemas: Record<string, object> = {};
  for (const [status, response] of Object.entries(route.responses)) {
    if (response.contentType === 'application/json' && response.schema) schemas[status] = response.schema;
  }
  return schemas;
}

export function createApp(deps: AppDependencies) {
  const allowed = new AllowedMethods();
  const limits = deps.serverLimits ?? DEFAULT_SERVER_LIMITS;
  const stalledAnswerMs = limits.stalledAnswerMs ?? DEFAULT_STALLED_ANSWER_MS;
  const tracing = deps.tracing ?? new Tracing();
  const app = Fastify({
    // Request logs show no headers and no query values.
    logger: typeof deps.logger === 'object' ? { ...deps.logger, serializers: { req: requestLogFields } } : (deps.logger ?? false),
    // The request id is its trace id: the error body's identifier, and on every log line.
    genReqId: (raw) => tracing.beginRequest(raw),
    // Without a logger Fastify makes no request loggers at all; with one, ours are made on first use.
    ...(typeof deps.logger === 'object' ? { childLoggerFactory: requestLoggerFactory } : {}),
    logController: new LogController({ requestIdLogLabel: 'trace_id' }),
    schemaController: { compilersFactory: { buildSerializer } },
    bodyLimit: DEFAULT_BODY_LIMIT_BYTES,
    // Behind HAProxy (deploy/haproxy.cfg), the caller's address is the one it forwards.
    ...(deps.trustProxy ? { trustProxy: deps.trustProxy } : {}),
    // Slow clients (slowloris) lose their socket: headers, then the whole request, have a deadline.
    http: { headersTimeout: limits.headersTimeoutMs, connectionsCheckingInterval: Math.min(1000, limits.headersTimeoutMs) },
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    // Fastify answers some malformed requests before routing; keep them in our shape too.
    return503OnClosing: false,
    // HEAD is not in the spec: 405 like any other method a path lacks. Fastify's HEAD for a GET
    // ran the handler and dropped the body, so a stream's handler (events, log follows) took its
    // slot and was never closed: 20 HEADs kept an account off its event stream for good.
    exposeHeadRoutes: false,
    // Long ids reach validation (and answer 404) instead of Fastify's bare 414.
    // deepObject parameters (`filter[mode]=ranked`) arrive nested, to be validated as the objects they are.
    routerOptions: { maxParamLength: 4096, querystringParser: parseQueryString },
    // A path Fastify cannot decode (bad percent-encoding) names nothing: 404 in our error body.
    clientErrorHandler: (error, socket) =>
      answerClientError(error, socket, (body) => app.log.info({ identifier: body.identifier, code: body.code, details: body.details }, body.message)),
    frameworkErrors: (error, request, reply) => {
      setTraceparent(tracing, request as FastifyRequest, reply as FastifyReply);
      const code: ErrorCode = error.code === 'FST_ERR_BAD_URL' ? 'RESOURCE_NOT_FOUND' : 'INVALID_REQUEST';
      const details = code === 'RESOURCE_NOT_FOUND' ? 'no such resource: the path is not valid percent-encoding' : error.message;
      return replyError(request as FastifyRequest, reply as FastifyReply, code, code === 'RESOURCE_NOT_FOUND' ? { details } : { violations: [{ field: 'request', description: details }] });
    },
  });

  // Component schemas once, for the serializer; validation.ts gives them to its own ajv.
  for (const schema of schemas) app.addSchema(schema);
  app.setValidatorCompiler(({ schema, httpPart }) => compileValidator(schema, httpPart as HttpPart));

  // Operations without a request body ignore whatever body arrives rather than refusing its type.
  app.removeAllContentTypeParsers();
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    if (!request.routeOptions.config.route?.requestContentType) return done(null, undefined);
    const encoding = contentEncodingOf(request);
    if (encoding !== undefined) {
      // Bodies are never decompressed: compressed bytes read as text were "not a JSON document".
      return done(new HttpFailure('UNSUPPORTED_MEDIA_TYPE', { details: `Content-Encoding ${echoed(encoding)} is not supported: send the body uncompressed` }), undefined);
    }
    const text = jsonBodyText(request.headers['content-type'], body as Buffer);
    if (text instanceof HttpFailure) done(text, undefined);
    else if (nestsDeeperThan(text, MAX_JSON_DEPTH)) {
      // Refused before parsing: deep nesting costs the parser and validator, and no body of the spec has it.
      done(new HttpFailure('INVALID_REQUEST', { violations: [{ field: 'body', description: `nests deeper than ${MAX_JSON_DEPTH} levels` }] }), undefined);
    } else parseJson(request, text, done);
  });
  app.addContentTypeParser('*', (request, payload, done) => {
    if (request.routeOptions.config.route?.requestContentType) {
      done(new HttpFailure('UNSUPPORTED_MEDIA_TYPE', { details: 'expected application/json' }), undefined);
      return;
    }
    payload.resume();
    payload.on('end', () => done(null, undefined));
  });

  app.addHook('onRoute', (route) => allowed.add(route.url, route.method));
  observeHttp(app, tracing, deps.metrics);

  /**
   * The one request hook (each hook costs every request; issue 19's profile): the headers of
   * every answer, then authentication. A callback hook that finishes at once when the
   * token's verdict is cached, and waits for the store only when it is not.
   */
  app.addHook('onRequest', (request, reply, done) => {
    // Named before authentication, so refused requests carry them too (errors answered before
    // routing set them in sendError). No response is ever to be sniffed into another type.
    setTraceparent(tracing, request, reply);
    // Nothing of the API is to be kept by a browser or proxy: answers carry tokens and env values.
    reply.header('API-Version', apiVersion).header('X-Content-Type-Options', 'nosniff').header('Cache-Control', 'no-store');
    const refused = authenticate(request);
    if (refused instanceof Promise) refused.then((late) => settle(late, request, reply, done), done);
    else settle(refused, request, reply, done);
  });

  type Refusal = { code: ErrorCode; extras: ErrorExtras };

  function settle(refused: Refusal | undefined, request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void) {
    // A refusal answers here, and the request goes no further.
    if (refused) replyError(request, reply, refused.code, refused.extras);
    else done();
  }

  /** Sets the request's credentials as its operation's security scheme says, or says why not. */
  function authenticate(request: FastifyRequest): Refusal | undefined | Promise<Refusal | undefined> {
    const route = request.routeOptions.config.route;
    if (!route || route.security === 'none') return undefined;
    if (route.security === 'adminSession') return authenticatePanelRequest(request);
    const result = authenticateHeader(deps.tokens, request.headers.authorization, route.requiredScopes);
    return result instanceof Promise ? result.then((late) => credit(request, late)) : credit(request, result);
  }

  function credit(request: FastifyRequest, result: AuthResult): Refusal | undefined {
    if (!result.ok) return { code: 'UNAUTHORIZED', extras: { details: describeAuthFailure(result) } };
    request.credentials = { principal: result.principal };
    return undefined;
  }

  async function authenticatePanelRequest(request: FastifyRequest): Promise<Refusal | undefined> {
    // `/admin/api/user//token` names no resource: 404 before asking for credentials.
    if (Object.values(request.params as Record<string, string>).some((value) => value === '')) {
      return { code: 'RESOURCE_NOT_FOUND', extras: { details: `no route ${request.method} ${pathOf(request)}` } };
    }
    // The panel's cookie and CSRF token (admin-auth.ts); an Authorization header counts for nothing here.
    const panel = await authenticatePanel(deps.operators, {
      cookieHeader: request.headers.cookie,
      csrfHeader: request.headers['x-csrf-token'],
    });
    if (!panel.ok) return { code: 'UNAUTHORIZED', extras: { details: panel.details } };
    request.credentials = { operator: panel.operator };
    return undefined;
  }

  app.setNotFoundHandler((request, reply) => {
    const methods = allowed.of(pathOf(request));
    if (methods.length > 0) {
      const body = errorBody('METHOD_NOT_ALLOWED', { requestId: request.id, path: pathOf(request) }, {
        details: `${request.method} is not a method of ${pathOf(request)}; it has ${methods.join(', ')}`,
      });
      return sendError(request, reply, body, { Allow: methods.join(', ') });
    }
    return replyError(request, reply, 'RESOURCE_NOT_FOUND', { details: `no route ${request.method} ${pathOf(request)}` });
  });

  app.setErrorHandler((error: FastifyError, request, reply) => {
    const { code, extras, headers, warn } = classify(error, request.routeOptions.bodyLimit ?? DEFAULT_BODY_LIMIT_BYTES);
    if (code === 'INTERNAL_ERROR') request.log.error({ err: error, identifier: request.id }, 'unexpected error');
    else if (warn) request.log.warn({ err: error, identifier: request.id }, `refused: ${extras.details}`);
    if (headers) return sendError(request, reply, errorBody(code, { requestId: request.id, path: pathOf(request) }, extras), headers);
    return replyError(request, reply, code, extras);
  });

  // The API reference: public (not in the route table, so the auth hook skips it), not part of the contract.
  app.get('/docs', serveDocs);
  app.get('/docs/', serveDocs);
  async function serveDocs(request: FastifyRequest, reply: FastifyReply) {
    let html: Buffer;
    try {
      html = await readFile(DOCS_FILE);
    } catch {
      return replyError(request, reply, 'RESOURCE_NOT_FOUND', { details: 'API reference not built: run npm run docs' });
    }
    return reply.type('text/html; charset=utf-8').header('Cache-Control', 'no-cache').send(html);
  }

  // The admin panel's pages (the Vite build): public files, not in the route table; its API is.
  registerAdminPanel(app, (request, reply, details) => replyError(request, reply, 'RESOURCE_NOT_FOUND', { details }));

  for (const route of routes) {
    const handler = (deps.handlers as unknown as Record<OperationId, AnyHandler>)[route.operationId].bind(deps.handlers);
    app.route({
      method: route.method,
      url: route.url,
      // JSON responses are serialized from the spec's schemas (fast-json-stringify): faster than
      // JSON.stringify, and nothing outside the documented shape can leak into a response.
      schema: { ...route.schema, response: jsonResponseSchemas(route) },
      config: { route },
      bodyLimit: bodyLimitOf(route.operationId),
      handler: async (request, reply) => {
        const simulated = deps.sandbox ? simulatedError(request, route) : undefined;
        if (simulated) {
          const body = errorBody(simulated, { requestId: request.id, path: pathOf(request) }, { details: 'simulated by X-Sandbox-Status' });
          const throttled = simulated === 'CAPACITY_UNAVAILABLE' || simulated === 'TOO_MANY_REQUESTS' || simulated === 'SERVICE_UNAVAILABLE';
          return sendError(request, reply, body, throttled ? { 'Retry-After': '3' } : {});
        }
        const context = handlerContext(request, reply);
        const result = await tracing.withRequest(request.raw, () =>
          handler({ params: request.params, query: request.query, headers: request.headers, body: request.body }, context),
        );
        // Errors carry the Error body (logged); a 503 from GET /readyz carries its own.
        if (result.status >= 400 && isErrorBody(result.body)) return sendError(request, reply, result.body, result.headers);
        reply.code(result.status);
        if (result.headers) reply.headers(result.headers);
        // Every streamed answer, a list's chunks as much as a log or an archive: cut when its client stops taking it.
        const watch = (body: Readable) =>
          cutWhenStalled(body, reply.raw, stalledAnswerMs, () =>
            request.log.info({ stalledMs: stalledAnswerMs }, 'answer cut: its client took nothing of it for too long'),
          );
        if (sentFromScratch(reply, result.status, result.body, watch)) return reply;
        const contentType = route.responses[result.status]?.contentType;
        if (contentType) reply.type(contentType);
        if (result.body instanceof Readable) watch(result.body);
        return reply.send(result.body);
      },
    });
  }

  app.server.maxConnections = limits.maxConnections;
  const perAddress = new ConnectionsPerAddress(limits.maxConnectionsPerAddress, deps.trustProxy, (unit) =>
    app.log.warn({ client: unit, limit: limits.maxConnectionsPerAddress }, 'connections refused: this address holds its limit of open connections'),
  );
  // After Node's own 'connection' listener: a refused socket is closed before any byte of it is read.
  app.server.on('connection', (socket: Socket) => {
    if (!perAddress.admit(socket)) socket.destroy();
  });
  return app;
}
