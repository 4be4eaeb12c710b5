/**
 * Typed errors: one class per documented error code, each carrying the service's `identifier`
 * (a trace id in the service log: quote it to support). `code` is a literal on every subclass,
 * so `switch (error.code)` on a `SessionHostError` narrows, and so does `instanceof`.
 */
import type { Error as ErrorBody, ErrorCode, Session } from '../generated/types.js';

export type { ErrorBody, ErrorCode };
/** The HTTP status of each error code, as the spec declares it (ErrorCode's x-status). */
export { errorStatus } from '../generated/errors.js';

/** A documented error from the service. */
export class ApiError extends Error {
  readonly statusCode: number;
  readonly code: ErrorCode;
  readonly identifier: string;
  readonly details: string | undefined;
  readonly violations: ErrorBody['violations'];
  /** The whole error body, as sent. */
  readonly body: ErrorBody;
  /** Seconds to wait before retrying, from Retry-After (on 420, 429 and 503). */
  readonly retryAfter: number | undefined;

  constructor(body: ErrorBody, response?: Response) {
    super(`${body.code} (${body.statusCode}): ${body.details ?? body.message} [identifier ${body.identifier}]`);
    this.name = new.target.name;
    this.statusCode = body.statusCode;
    this.code = body.code;
    this.identifier = body.identifier;
    this.details = body.details;
    this.violations = body.violations;
    this.body = body;
    const retryAfter = Number(response?.headers.get('Retry-After') ?? Number.NaN);
    this.retryAfter = Number.isFinite(retryAfter) && retryAfter >= 0 ? retryAfter : undefined;
  }
}

export class UnauthorizedError extends ApiError {
  declare readonly code: 'UNAUTHORIZED';
}
export class QuotaExceededError extends ApiError {
  declare readonly code: 'QUOTA_EXCEEDED';
}
export class NotFoundError extends ApiError {
  declare readonly code: 'RESOURCE_NOT_FOUND';
}
export class ConflictError extends ApiError {
  declare readonly code: 'CONFLICT';
}
export class PayloadTooLargeError extends ApiError {
  declare readonly code: 'PAYLOAD_TOO_LARGE';
}
export class UnsupportedMediaTypeError extends ApiError {
  declare readonly code: 'UNSUPPORTED_MEDIA_TYPE';
}
export class CapacityUnavailableError extends ApiError {
  declare readonly code: 'CAPACITY_UNAVAILABLE';
}
export class InvalidRequestError extends ApiError {
  declare readonly code: 'INVALID_REQUEST';
}
export class TooManyRequestsError extends ApiError {
  declare readonly code: 'TOO_MANY_REQUESTS';
}
export class InternalServerError extends ApiError {
  declare readonly code: 'INTERNAL_ERROR';
}
/** A method the path does not have (`Allow` lists those it has): a bug in the caller. */
export class MethodNotAllowedError extends ApiError {
  declare readonly code: 'METHOD_NOT_ALLOWED';
}
/** A request the HTTP parser refused before routing (malformed request line or headers). */
export class BadRequestError extends ApiError {
  declare readonly code: 'BAD_REQUEST';
}
/** Busy, not broken: nothing of the request was done; retry it after `retryAfter` seconds. */
export class ServiceUnavailableError extends ApiError {
  declare readonly code: 'SERVICE_UNAVAILABLE';
}

/** Every documented code has its class: a code added to the spec fails to compile here. */
export const errorClasses: { [C in ErrorCode]: new (body: ErrorBody, response?: Response) => ApiError & { readonly code: C } } = {
  UNAUTHORIZED: UnauthorizedError,
  QUOTA_EXCEEDED: QuotaExceededError,
  RESOURCE_NOT_FOUND: NotFoundError,
  CONFLICT: ConflictError,
  PAYLOAD_TOO_LARGE: PayloadTooLargeError,
  UNSUPPORTED_MEDIA_TYPE: UnsupportedMediaTypeError,
  CAPACITY_UNAVAILABLE: CapacityUnavailableError,
  INVALID_REQUEST: InvalidRequestError,
  TOO_MANY_REQUESTS: TooManyRequestsError,
  INTERNAL_ERROR: InternalServerError,
  METHOD_NOT_ALLOWED: MethodNotAllowedError,
  BAD_REQUEST: BadRequestError,
  SERVICE_UNAVAILABLE: ServiceUnavailableError,
};

/** Any documented error, discriminated by `code`. */
export type SessionHostError = InstanceType<(typeof errorClasses)[ErrorCode]>;

/** A response that is not what the spec documents (no error body, a proxy's HTML page...). */
export class UnexpectedResponseError extends Error {
  constructor(readonly status: number, readonly text: string) {
    super(`unexpected ${status} response${text ? `: ${text.slice(0, 200)}` : ''}`);
    this.name = 'UnexpectedResponseError';
  }
}

/**
 * The service's URL answered with a redirect, which the client never follows: no operation
 * redirects, so one comes from something in front of the service (an http-to-https redirect,
 * a moved host), and following it sent the request's body (a start's env values) to wherever it
 * pointed. Point the base URL at `location` if that is the service.
 */
export class RedirectedError extends Error {
  constructor(readonly status: number, readonly location: string) {
    super(`the service answered ${status}, a redirect to ${location}, which is not followed: use that URL as the base URL if it is the service`);
    this.name = 'RedirectedError';
  }
}

/** The service could not be reached (connection refused, DNS, TLS, reset before an answer). */
export class UnreachableError extends Error {
  constructor(readonly url: string, cause: unknown) {
    super(`cannot reach ${url}: ${cause instanceof Error ? ((cause.cause as Error | undefined)?.message ?? cause.message) : String(cause)}`, { cause });
    this.name = 'UnreachableError';
  }
}

/** A session ended, or the wait timed out, before it reached the awaited status. */
export class WaitError extends Error {
  constructor(message: string, readonly session: Session | undefined) {
    super(message);
    this.name = 'WaitError';
  }
}

export function isErrorBody(value: unknown): value is ErrorBody {
  return typeof value === 'object' && value !== null && 'code' in value && 'identifier' in value && 'statusCode' in value;
}

/** The typed error for an error body (an unknown code still gives an ApiError). */
export function toApiError(body: ErrorBody, response?: Response): SessionHostError {
  const ErrorClass = errorClasses[body.code] ?? ApiError;
  return new ErrorClass(body, response) as SessionHostError;
}

/** The data of a successful call, or the typed error thrown for a failed one. */
export function unwrap<T>(result: { data?: T; error?: unknown; response: Response }): T {
  if (result.error !== undefined || !result.response.ok) {
    if (isErrorBody(result.error)) throw toApiError(result.error, result.response);
    throw new UnexpectedResponseError(result.response.status, typeof result.error === 'string' ? result.error : '');
  }
  return result.data as T;
}
