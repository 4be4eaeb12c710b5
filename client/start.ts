/**
 * Starting a session the way the interface description recommends:
 *
 * - On `420 CAPACITY_UNAVAILABLE` wait `Retry-After` (clamped into 2 to 5 s, with jitter), retry;
 *   when the location still answers 420, try the caller's secondary locations in order. The result
 *   says which location took the session.
 * - A start is idempotent because the caller chooses the id, so a start whose outcome is unknown
 *   (connection lost, a 500 or an undocumented 5xx) is retried too; a `409 CONFLICT` after such a
 *   retry means "already started", and the session is read back with GET /session/{id}. A 409 on
 *   a start that cannot have succeeded before is a real conflict (the id is taken) and is thrown.
 * - `503 SERVICE_UNAVAILABLE` (the store was busy: nothing of the request was done) is retried in
 *   the same location after `Retry-After`; it is the service that is busy, not the location, so it
 *   leads to no fallback, and since nothing was done a later 409 is still a real conflict.
 * - Every other error (401, 403, 404, 413, 415, 422) is thrown at once as its typed error.
 *
 * Nothing else is retried here: calls that are not idempotent must not be repeated blindly.
 */
import type { Session, SessionStartRequest } from '../generated/types.js';
import { ApiError, CapacityUnavailableError, ConflictError, InternalServerError, ServiceUnavailableError, UnexpectedResponseError, UnreachableError, unwrap } from './errors.js';
import type { SessionHostClient } from './index.js';
import { sleep as realSleep } from './sleep.js';


export interface StartOptions {
  /** Secondary locations, tried in order once `request.location` keeps answering 420. */
  locations?: string[];
  /** POSTs per location, the first included (default 2: one retry after Retry-After). */
  attemptsPerLocation?: number;
  /** Aborts a wait or a request in flight; the promise rejects with the signal's reason. */
  signal?: AbortSignal;
  /** How to wait between attempts (default: an abortable timer). Tests inject one that returns at once. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** The delay before a retry from `Retry-After` in seconds (default `retryDelayMs`). */
  retryDelayMs?: (retryAfterSeconds: number | undefined) => number;
  /** Extra headers for one attempt (`attempt` counts from 1 per location). */
  headers?: (attempt: { location: string; attempt: number }) => Record<string, string> | undefined;
  /** Told before each wait: which attempt failed, why, and the delay before the next one. */
  onRetry?: (info: { location: string; attempt: number; error: Error; delayMs: number }) => void;
}

export interface StartAttempt {
  location: string;
  /** `created` 201; `capacity` 420; `busy` 503 (nothing done); `unknown` the outcome is unknown (unreachable, other 5xx); `existing` 409 read back. */
  outcome: 'created' | 'capacity' | 'busy' | 'unknown' | 'existing';
  /** The error's identifier, to quote to support. */
  identifier?: string;
}

export interface StartResult {
  session: Session;
  /** The location that took the session. */
  location: string;
  /** True when an earlier attempt had started it (a 409 after a retry, read back). */
  alreadyStarted: boolean;
  attempts: StartAttempt[];
}

/** Retry-After (seconds, default 3) clamped into [2, 5] s, with ±10 % jitter, kept inside [2, 5] s. */
export function retryDelayMs(retryAfterSeconds: number | undefined, random: () => number = Math.random): number {
  const base = Math.min(5, Math.max(2, retryAfterSeconds ?? 3)) * 1000;
  const jittered = base * (0.9 + 0.2 * random());
  return Math.round(Math.min(5000, Math.max(2000, jittered)));
}

/** True when the start may have happened although no 201 was seen. */
function outcomeUnknown(error: unknown): boolean {
  return (
    error instanceof UnreachableError ||
    error instanceof InternalServerError ||
    (error instanceof UnexpectedResponseError && error.status >= 500)
  );
}

/** Whether a session read back after a 409 could be what one of the attempts so far started. */
function couldBeOurs(session: Session, request: SessionStartRequest, tried: string[]): boolean {
  return session.image === request.image && (request.version === undefined || session.tag === request.version) && tried.includes(session.location);
}

export async function startSession(api: SessionHostClient, startRequest: SessionStartRequest, options: StartOptions = {}): Promise<StartResult> {
  // The id makes a retried start idempotent, so the client chooses one when the caller did not.
  const request = { ...startRequest, id: startRequest.id ?? crypto.randomUUID() };
  const locations = [request.location, ...(options.locations ?? []).filter((l) => l !== request.location)];
  const perLocation = Math.max(1, options.attemptsPerLocation ?? 2);
  const wait = options.sleep ?? realSleep;
  const delayFor = options.retryDelayMs ?? ((seconds) => retryDelayMs(seconds));
  const attempts: StartAttempt[] = [];
  let mayHaveStarted = false;
  let lastError: Error | undefined;

  for (const location of locations) {
    for (let attempt = 1; attempt <= perLocation; attempt++) {
      options.signal?.throwIfAborted();
      const headers = options.headers?.({ location, attempt });
      try {
        const result = await api.POST('/session', {
          body: { ...request, location },
          ...(headers ? { headers } : {}),
          ...(options.signal ? { signal: options.signal } : {}),
        });
        const session = unwrap(result);
        attempts.push({ location, outcome: 'created' });
        return { session, location, alreadyStarted: false, attempts };
      } catch (error) {
        options.signal?.throwIfAborted();
        if (error instanceof ConflictError && mayHaveStarted) {
          // An earlier attempt went through: this id is ours. Read the session back.
          const session = unwrap(await api.GET('/session/{id}', { params: { path: { id: request.id } }, ...(options.signal ? { signal: options.signal } : {}) }));
          // Not this start's if no attempt could have made it: the id was already used (a reused id), so the 409 stands.
          if (!couldBeOurs(session, request, locations.slice(0, locations.indexOf(location) + 1))) throw error;
          attempts.push({ location: session.location, outcome: 'existing', identifier: error.identifier });
          return { session, location: session.location, alreadyStarted: true, attempts };
        }
        const capacity = error instanceof CapacityUnavailableError;
        const busy = error instanceof ServiceUnavailableError;
        const unknown = outcomeUnknown(error);
        if (!capacity && !busy && !unknown) throw error;
        mayHaveStarted ||= unknown;
        lastError = error as Error;
        attempts.push({
          location,
          outcome: capacity ? 'capacity' : busy ? 'busy' : 'unknown',
          ...(error instanceof ApiError ? { identifier: error.identifier } : {}),
        });
        // Still 420 after the last attempt here: on to the next location at once (its capacity is its own).
        if (attempt === perLocation && capacity) break;
        if (attempt === perLocation) throw error;
        const delayMs = delayFor(error instanceof ApiError ? error.retryAfter : undefined);
        options.onRetry?.({ location, attempt, error: error as Error, delayMs });
        await wait(delayMs, options.signal);
      }
    }
  }
  throw lastError ?? new Error('no location to start in');
}
