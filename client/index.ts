/**
 * The typed client: openapi-fetch over the generated `paths`, with bearer auth as one
 * middleware and errors as ApiError values carrying the service's `identifier`.
 *
 *   const api = createSessionHostClient({ baseUrl, token });
 *   const { data, error } = await api.GET('/account');
 *   const account = unwrap(await api.GET('/account')); // or throw ApiError
 */
import createClient, { type Client, type Middleware } from 'openapi-fetch';
import type { components, paths } from '../generated/types.js';

export type { components, paths };
export type ErrorBody = components['schemas']['Error'];
export type ErrorCode = components['schemas']['ErrorCode'];
export type SessionHostClient = Client<paths>;

export interface ClientOptions {
  baseUrl: string;
  /** A bearer token (`gsh_…`); omit for a client that adds its own auth. */
  token?: string;
  /** Custom fetch (tests, proxies, instrumentation). */
  fetch?: typeof globalThis.fetch;
}

export function bearerAuth(token: string): Middleware {
  return {
    onRequest({ request }) {
      request.headers.set('Authorization', `Bearer ${token}`);
      return request;
    },
  };
}

export function createSessionHostClient(options: ClientOptions): SessionHostClient {
  const client = createClient<paths>({
    baseUrl: options.baseUrl,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  if (options.token) client.use(bearerAuth(options.token));
  return client;
}

/** A documented error from the service. Quote `identifier` to support: it is in the service log. */
export class ApiError extends Error {
  readonly statusCode: number;
  readonly code: ErrorCode;
  readonly identifier: string;
  readonly details: string | undefined;
  readonly violations: ErrorBody['violations'];
  /** Seconds to wait before retrying, from Retry-After (on 420). */
  readonly retryAfter: number | undefined;

  constructor(body: ErrorBody, response?: Response) {
    super(`${body.code} (${body.statusCode}): ${body.details ?? body.message} [identifier ${body.identifier}]`);
    this.name = 'ApiError';
    this.statusCode = body.statusCode;
    this.code = body.code;
    this.identifier = body.identifier;
    this.details = body.details;
    this.violations = body.violations;
    const retryAfter = Number(response?.headers.get('Retry-After'));
    this.retryAfter = Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : undefined;
  }
}

function isErrorBody(value: unknown): value is ErrorBody {
  return typeof value === 'object' && value !== null && 'code' in value && 'identifier' in value && 'statusCode' in value;
}

/** The data of a successful call, or an ApiError thrown for a failed one. */
export function unwrap<T>(result: { data?: T; error?: unknown; response: Response }): T {
  if (result.error !== undefined || !result.response.ok) {
    if (isErrorBody(result.error)) throw new ApiError(result.error, result.response);
    throw new Error(`unexpected ${result.response.status} response without an error body`);
  }
  return result.data as T;
}
