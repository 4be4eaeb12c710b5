/**
 * The one place that shapes error bodies. Every error the service answers, whether from a
 * handler, validation, auth, routing or a crash, goes through errorBody().
 */
import { errorStatus } from '../../generated/errors.js';
import type { Error as ErrorBody, ErrorCode, Violation } from '../../generated/types.js';

export type { ErrorBody, ErrorCode, Violation };

/** The status of each code, declared once in the spec (ErrorCode's x-status). */
export const statusOf = errorStatus;

const messageOf: Record<ErrorCode, string> = {
  UNAUTHORIZED: 'Authentication failed',
  QUOTA_EXCEEDED: 'Runtime quota exhausted',
  RESOURCE_NOT_FOUND: 'Resource not found',
  CONFLICT: 'Conflict',
  PAYLOAD_TOO_LARGE: 'Request body too large',
  UNSUPPORTED_MEDIA_TYPE: 'Unsupported media type',
  CAPACITY_UNAVAILABLE: 'No capacity available',
  INVALID_REQUEST: 'Invalid request',
  TOO_MANY_REQUESTS: 'Too many requests',
  INTERNAL_ERROR: 'Internal error',
  METHOD_NOT_ALLOWED: 'Method not allowed',
  BAD_REQUEST: 'Bad request',
  SERVICE_UNAVAILABLE: 'Service busy',
};

/** What an error body needs to know about the request it answers. */
export interface ErrorContext {
  requestId: string;
  path: string;
}

/** QUOTA_EXCEEDED's message when the storage budget, not the runtime quota, refused. */
export const STORAGE_BUDGET_MESSAGE = 'Storage budget exhausted';

export interface ErrorExtras {
  details?: string;
  /** Where the code's own message would mislead (a storage budget is no runtime quota). */
  message?: string;
  violations?: Violation[];
}

/**
 * What an error echoes of a caller's input is bounded: a name or key (a segment of a `field`) at
 * most ECHO_MAX_CHARS characters, at most VIOLATIONS_LISTED violations, and every string of the
 * body (and so the log line, which carries `details`) cut past its own cap. A 422 listing 64 env
 * names of 16,000 characters was 2 MB, and 1 MB of service log, per request (outside check 9, F2).
 */
export const ECHO_MAX_CHARS = 64;
export const VIOLATIONS_LISTED = 16;
/** Caps on a whole `field`, `description` and `details`: a net under the echoes built elsewhere. */
const FIELD_MAX_CHARS = 256;
const DESCRIPTION_MAX_CHARS = 1024;
const DETAILS_MAX_CHARS = 4096;

/** `text` cut to `max` characters (never inside a surrogate pair), saying how many were left out. */
export function echoed(text: string, max = ECHO_MAX_CHARS): string {
  if (text.length <= max) return text;
  const end = /[\uD800-\uDBFF]/.test(text[max - 1]!) ? max - 1 : max;
  return `${text.slice(0, end)}… (${text.length - end} more characters)`;
}

function boundedViolations(violations: Violation[]): Violation[] {
  return violations
    .slice(0, VIOLATIONS_LISTED)
    .map(({ field, description }) => ({ field: echoed(field, FIELD_MAX_CHARS), description: echoed(description, DESCRIPTION_MAX_CHARS) }));
}

/** `details` on every error (Gameye's error shape requires it): the violations in one line, or the message. */
function defaultDetails(code: ErrorCode, listed: Violation[] | undefined, total: number): string {
  if (listed?.length) {
    // Cut before the count, which must stay: it is all that says the list is not whole.
    const line = echoed(listed.map((v) => `${v.field} ${v.description}`).join('; '), DETAILS_MAX_CHARS);
    return total > listed.length ? `${line}; and ${total - listed.length} more` : line;
  }
  return code === 'INTERNAL_ERROR' ? 'quote the identifier to support' : messageOf[code];
}

export function errorBody(code: ErrorCode, context: ErrorContext, extras: ErrorExtras = {}): ErrorBody {
  const violations = extras.violations === undefined ? undefined : boundedViolations(extras.violations);
  const details = extras.details === undefined ? defaultDetails(code, violations, extras.violations?.length ?? 0) : echoed(extras.details, DETAILS_MAX_CHARS);
  return {
    statusCode: statusOf[code],
    code,
    message: extras.message ?? messageOf[code],
    details,
    path: context.path,
    identifier: context.requestId,
    timestamp: new Date().toISOString(),
    ...(violations === undefined ? {} : { violations }),
  };
}

/** An expected failure as a handler's return value, typed with its documented status. */
export function fail<C extends ErrorCode>(
  context: ErrorContext,
  code: C,
  extras: ErrorExtras = {},
): { status: (typeof statusOf)[C]; body: ErrorBody } {
  return { status: statusOf[code], body: errorBody(code, context, extras) };
}

/** An error raised outside a handler (auth, body parsing) that the error handler renders. */
export class HttpFailure extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly extras: ErrorExtras = {},
  ) {
    super(extras.details ?? code);
  }
}
