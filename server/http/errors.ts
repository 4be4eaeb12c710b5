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

export interface ErrorExtras {
  details?: string;
  violations?: Violation[];
}

/** `details` on every error (Gameye's error shape requires it): the violations in one line, or the message. */
function defaultDetails(code: ErrorCode, violations: Violation[] | undefined): string {
  if (violations?.length) return violations.map((v) => `${v.field} ${v.description}`).join('; ');
  return code === 'INTERNAL_ERROR' ? 'quote the identifier to support' : messageOf[code];
}

export function errorBody(code: ErrorCode, context: ErrorContext, extras: ErrorExtras = {}): ErrorBody {
  return {
    statusCode: statusOf[code],
    code,
    message: messageOf[code],
    details: extras.details ?? defaultDetails(code, extras.violations),
    path: context.path,
    identifier: context.requestId,
    timestamp: new Date().toISOString(),
    ...(extras.violations === undefined ? {} : { violations: extras.violations }),
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
