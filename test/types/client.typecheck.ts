/**
 * Compile-time checks of the client SDK, run by `npm run typecheck` (tsc): the generated types
 * flow through openapi-fetch and the SDK helpers, so a wrong path, a missing required field or a
 * wrong enum value does not compile. Each @ts-expect-error fails the typecheck if the error it
 * expects goes away. Never executed: the calls sit in a function nobody calls.
 */
import {
  createSessionHostClient,
  startSession,
  unwrap,
  waitForStatus,
  type SessionHostError,
} from '../../client/index.js';

export async function checks() {
  const api = createSessionHostClient({ baseUrl: 'http://127.0.0.1:8080', token: 'gsh_x' });

  // Correct calls compile, and their data is typed from the spec.
  const session = unwrap(await api.GET('/session/{id}', { params: { path: { id: 'm-1' } } }));
  const status: 'created' | 'running' | 'restarting' | 'draining' | 'shuttingdown' | 'server_unreachable' | 'exited' | 'dead' = session.status;
  // What every answer carries is typed as present (required since 1.6.0): no `undefined` to handle.
  const restarts: boolean = session.restart;
  const expires: number | null = session.expires;
  const next: string | null = unwrap(await api.GET('/session', { params: { query: { limit: 10 } } })).next_cursor;
  const cap: number | null = unwrap(await api.GET('/account')).max_sessions;
  unwrap(await api.POST('/token', { body: { name: 'mm', scopes: ['session:start'], expires_after: '1h30m' } }));
  const { location } = await startSession(api, { id: 'm-1', location: 'local-a', image: 'echo', restart: false }, { locations: ['local-b'] });
  await waitForStatus(api, 'm-1', ['running', 'exited']);

  // Bodies that are not JSON come as the client reads them (by Content-Type): text, a Blob, a stream.
  const logs: string = unwrap(await api.GET('/logs', { params: { query: { id: 'm-1' } } }));
  const metrics: string = unwrap(await api.GET('/metrics'));
  const archive: Blob = unwrap(await api.GET('/artifacts', { params: { query: { session: 'm-1' } } }));
  const events: ReadableStream<Uint8Array> = unwrap(await api.GET('/events'));
  // @ts-expect-error the archive is binary: a Blob, not a string.
  const archiveText: string = unwrap(await api.GET('/artifacts', { params: { query: { session: 'm-1' } } }));
  // A call's own parseAs still decides.
  const streamed: ReadableStream<Uint8Array> | null = unwrap(await api.GET('/logs', { params: { query: { id: 'm-1' } }, parseAs: 'stream' }));

  // A wrong path.
  // @ts-expect-error /sessions is not a path of the API (it is /session).
  await api.GET('/sessions');
  // @ts-expect-error POST is not an operation of /account.
  await api.POST('/account', {});
  // @ts-expect-error the path parameter is `id`, not `session`.
  await api.GET('/session/{id}', { params: { path: { session: 'm-1' } } });

  // A missing required field.
  // @ts-expect-error a token needs its scopes.
  await api.POST('/token', { body: { name: 'no scopes' } });
  // @ts-expect-error a start needs an image.
  await startSession(api, { id: 'm-2', location: 'local-a', restart: false });
  // @ts-expect-error GET /logs needs the session id in the query.
  await api.GET('/logs', { params: { query: {} } });

  // A wrong enum value.
  // @ts-expect-error `session:write` is not a scope.
  await api.POST('/token', { body: { name: 'bad', scopes: ['session:write'] } });
  // @ts-expect-error `started` is not a session status.
  await waitForStatus(api, 'm-1', 'started');
  // @ts-expect-error `stopped` is not a session status filter.
  await api.GET('/session', { params: { query: { status: 'stopped' } } });

  // A wrong type for a documented field.
  // @ts-expect-error labels are a string map.
  await startSession(api, { id: 'm-3', location: 'local-a', image: 'echo', restart: false, labels: { players: 8 } });

  // Typed errors narrow on `code`.
  const narrow = (error: SessionHostError) => {
    if (error.code === 'CAPACITY_UNAVAILABLE') {
      const seconds: number | undefined = error.retryAfter;
      return seconds;
    }
    // @ts-expect-error `CAPACITY` is not an error code.
    if (error.code === 'CAPACITY') return undefined;
    return error.identifier;
  };
  return { status, location, narrow, logs, metrics, archive, events, archiveText, streamed };
}
