/**
 * The client SDK: openapi-fetch over the generated `paths` (the spec's types flow through),
 * plus the behaviour the interface description recommends, done once:
 *
 *   const api = createSessionHostClient({ baseUrl, token });
 *   const account = unwrap(await api.GET('/account'));            // data, or a typed error thrown
 *   const { session, location } = await startSession(api,          // 420: wait Retry-After (2-5 s),
 *     { id, location: 'eu-west', image: 'echo' },                  // retry, then the secondary
 *     { locations: ['us-east'] });                                  // locations, in order
 *   await waitForStatus(api, session.id, 'running');               // GET /events, polling fallback
 *
 * Errors are classes per documented code (`UnauthorizedError`, `CapacityUnavailableError`, ...),
 * all `ApiError`s carrying `code`, `statusCode` and the service's `identifier`.
 *
 * A success's body is read as its Content-Type says: JSON parsed, text as a string, a tar archive
 * as a Blob, an event stream as a ReadableStream (client/read-by-content-type.ts).
 */
import createClient, { type Middleware } from 'openapi-fetch';
import type { components, paths } from '../generated/types.js';
import { RedirectedError, UnreachableError } from './errors.js';
import { readingByContentType, type SessionHostClient } from './read-by-content-type.js';

export type { components, paths, SessionHostClient };
export type { Session, SessionEvent, SessionStartRequest, SessionStatus } from '../generated/types.js';

export * from './errors.js';
export { retryDelayMs, startSession, type StartAttempt, type StartOptions, type StartResult } from './start.js';
export { waitForStatus, type WaitOptions, type WaitResult } from './wait.js';

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
  const inner = options.fetch ?? globalThis.fetch;
  const client = createClient<paths>({
    baseUrl: options.baseUrl,
    // A failure to connect becomes an UnreachableError; an abort stays an abort. Redirects are
    // not followed (RedirectedError says why): fetch drops the token on a redirect to another
    // origin, but sends the body on a 307 or 308, and a custom fetch may send the token too.
    fetch: async (request: Request) => {
      let response: Response;
      try {
        response = await inner(new Request(request, { redirect: 'manual' }));
      } catch (error) {
        if (request.signal.aborted || (error as Error)?.name === 'AbortError') throw error;
        throw new UnreachableError(options.baseUrl, error);
      }
      if (response.status >= 300 && response.status < 400 && response.headers.has('location')) {
        await response.body?.cancel();
        throw new RedirectedError(response.status, response.headers.get('location')!);
      }
      return response;
    },
  });
  if (options.token) client.use(bearerAuth(options.token));
  return readingByContentType(client);
}
