// Generated from spec/ by `npm run generate`. Do not edit by hand.
import type { ErrorCode } from './types.js';

/** The HTTP status of each error code (the ErrorCode schema's x-status). */
export const errorStatus = {
  UNAUTHORIZED: 401,
  QUOTA_EXCEEDED: 403,
  RESOURCE_NOT_FOUND: 404,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  CAPACITY_UNAVAILABLE: 420,
  INVALID_REQUEST: 422,
  TOO_MANY_REQUESTS: 429,
  INTERNAL_ERROR: 500,
  METHOD_NOT_ALLOWED: 405,
  BAD_REQUEST: 400,
  SERVICE_UNAVAILABLE: 503,
} as const satisfies Record<ErrorCode, number>;
