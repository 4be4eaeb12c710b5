/**
 * What one request may cost before a handler sees it: the body size per operation, how deep its
 * JSON may nest, how long a client may take to send it, how many connections are open at once,
 * and what of its URL reaches the logs. Each limit is documented in the README (Limits).
 */
import type { FastifyRequest } from 'fastify';
import type { OperationId } from './operation.js';

/** The body limit of an operation that does not name its own. */
export const DEFAULT_BODY_LIMIT_BYTES = 1024 * 1024;
/** Credentials and small forms: nothing legitimate comes near these. */
const SMALL_BODY_LIMIT_BYTES = 8 * 1024;
const BODY_LIMIT_BYTES: Partial<Record<OperationId, number>> = {
  signIn: SMALL_BODY_LIMIT_BYTES,
  createToken: SMALL_BODY_LIMIT_BYTES,
  createUserToken: SMALL_BODY_LIMIT_BYTES,
  updateUserToken: SMALL_BODY_LIMIT_BYTES,
  createUser: SMALL_BODY_LIMIT_BYTES,
  updateUser: SMALL_BODY_LIMIT_BYTES,
  updateNode: SMALL_BODY_LIMIT_BYTES,
  sizeWarmPool: SMALL_BODY_LIMIT_BYTES,
  createSubscription: SMALL_BODY_LIMIT_BYTES,
  registerImageTag: SMALL_BODY_LIMIT_BYTES,
};

export function bodyLimitOf(operationId: string): number {
  return Object.hasOwn(BODY_LIMIT_BYTES, operationId) ? BODY_LIMIT_BYTES[operationId as OperationId]! : DEFAULT_BODY_LIMIT_BYTES;
}

/** No request body of the spec nests deeper than a few levels; parsing deeper ones is only cost. */
export const MAX_JSON_DEPTH = 32;

/** Whether JSON text nests objects and arrays deeper than `limit`: one pass over the text, before any parsing. */
export function nestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

/** HTTP server limits (README, Configuration: HTTP_*). */
export interface ServerLimits {
  /** Time a client has to send all request headers (slowloris). */
  headersTimeoutMs: number;
  /** Time a client has to send the whole request. */
  requestTimeoutMs: number;
  /** An idle keep-alive connection is closed after this long. */
  keepAliveTimeoutMs: number;
  /** Open connections at once; further ones are refused. */
  maxConnections: number;
  /** Open connections at once from one address (IPv6: one /64), trusted proxies aside; further ones are refused. */
  maxConnectionsPerAddress: number;
  /** A streamed answer whose client takes nothing of what was written for this long is cut (stalled-answers.ts). */
  stalledAnswerMs?: number;
}

export const DEFAULT_SERVER_LIMITS: ServerLimits = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  maxConnections: 2048,
  // A quarter of the whole: one client can no longer keep everyone else out, and a studio's
  // backend behind one NAT address still gets hundreds (B4 starts 500 at once from one).
  maxConnectionsPerAddress: 512,
};

/**
 * A URL as the logs show it: the path and the query's parameter names, never their values
 * (a filter value, a cursor or a mistakenly pasted token are not the log's to keep).
 */
export function redactedUrl(url: string): string {
  const start = url.indexOf('?');
  if (start === -1) return url;
  const names = [...new URLSearchParams(url.slice(start + 1)).keys()];
  return `${url.slice(0, start)}?${names.map((name) => `${encodeURIComponent(name)}=_`).join('&')}`;
}

/** Fastify's request log serializer with the URL redacted (no headers, no query values). */
export function requestLogFields(request: FastifyRequest): Record<string, unknown> {
  return {
    method: request.method,
    url: redactedUrl(request.url),
    remoteAddress: request.ip,
  };
}
