/**
 * What one token can make the service hold through the control API is bounded: a session's
 * players (the SDK's 1,024), an account's tokens, and the tags registry pushes register.
 */
import { describe, expect, it } from 'vitest';
import { REGISTERED_TAGS_PER_IMAGE } from '../../server/domain/catalog.js';
import { MAX_PLAYERS_PER_SESSION } from '../../server/domain/session-lifecycle.js';
import { DEFAULT_STREAM_LIMITS } from '../../server/http/open-streams.js';
import { expectError } from '../support/http.js';
import { useService } from '../support/service.js';

describe('bounds on what a caller can grow', () => {
  const service = useService();

  it('refuses a join past 1,024 players in a session, whole, and keeps who had joined', async () => {
    expect((await service.call('POST', '/session', { body: { id: 'crowd', location: 'local-a', image: 'echo' } })).status).toBe(201);
    const batch = (from: number, count: number) => Array.from({ length: count }, (_, i) => `p${from + i}`);
    for (let from = 0; from < MAX_PLAYERS_PER_SESSION; from += 256) {
      expect((await service.call('PUT', '/session/player/join', { body: { session: 'crowd', players: batch(from, 256) } })).status).toBe(200);
    }
    // Those already in are no newcomers: rejoining is fine at the cap.
    const again = await service.call('PUT', '/session/player/join', { body: { session: 'crowd', players: batch(0, 10) } });
    expect(again.json.count).toBe(MAX_PLAYERS_PER_SESSION);
    const past = await service.call('PUT', '/session/player/join', { body: { session: 'crowd', players: ['p0', 'late'] } });
    expectError(past, 409, 'CONFLICT', '/session/player/join');
    expect(past.json.details).toContain('1024');
    const players = (await service.call('GET', '/session/crowd')).json.players.joined as string[];
    expect(players).toHaveLength(MAX_PLAYERS_PER_SESSION);
    expect(players).not.toContain('late');
    // Leaving makes room again.
    expect((await service.call('DELETE', '/session/player/leave', { body: { session: 'crowd', players: ['p1'] } })).status).toBe(200);
    expect((await service.call('PUT', '/session/player/join', { body: { session: 'crowd', players: ['late'] } })).json.count).toBe(MAX_PLAYERS_PER_SESSION);
  });

  it('holds racing joins to the cap: each is counted after the others', async () => {
    expect((await service.call('POST', '/session', { body: { id: 'rush', location: 'local-a', image: 'echo' } })).status).toBe(201);
    const account = (await service.call('GET', '/account')).json.id as string;
    const quarter = MAX_PLAYERS_PER_SESSION / 4;
    // Issued in one turn, in process: every join reads the session before any of them writes.
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, batch) =>
        service.running.service.sessions.join(account, 'rush', Array.from({ length: quarter }, (_, i) => `r${batch}-${i}`)),
      ),
    );
    expect(results.filter((result) => result.ok)).toHaveLength(4);
    expect(results.filter((result) => !result.ok && result.reason === 'full')).toHaveLength(4);
    expect((await service.call('GET', '/session/rush')).json.players.joined).toHaveLength(MAX_PLAYERS_PER_SESSION);
  });

  it(`keeps an account's newest ${REGISTERED_TAGS_PER_IMAGE} pushed tags of an image: older ones go`, async () => {
    const push = (tag: string) =>
      service.call('POST', '/webhook/repohost', { body: { push_data: { tag, pusher: 'ci' }, repository: { repo_name: 'studio/echo' } } });
    for (let build = 0; build <= REGISTERED_TAGS_PER_IMAGE; build++) expect((await push(`build-${build}`)).status).toBe(202);
    const start = (id: string, version: string) => service.call('POST', '/session', { body: { id, location: 'local-a', image: 'echo', version } });
    expectError(await start('oldest', 'build-0'), 404, 'RESOURCE_NOT_FOUND', '/session');
    expect((await start('newest', `build-${REGISTERED_TAGS_PER_IMAGE}`)).status).toBe(201);
    expect((await start('kept', 'build-1')).status).toBe(201);
  });
});

describe('tokens per account', () => {
  const MAX = 3;
  let skew = 0;
  const service = useService({ limits: { streams: { ...DEFAULT_STREAM_LIMITS }, subscriptions: 25, tokens: MAX } }, { now: () => Date.now() + skew });

  it('refuses a token past the cap with 409, and counts neither revoked nor expired ones', async () => {
    // The bootstrap token is one.
    const minted: string[] = [];
    for (let i = 1; i < MAX; i++) {
      const created = await service.call('POST', '/token', { body: { name: `t${i}`, scopes: ['session:read'] } });
      expect(created.status).toBe(201);
      minted.push(created.json.id);
    }
    const refused = await service.call('POST', '/token', { body: { name: 'one-more', scopes: ['session:read'] } });
    expectError(refused, 409, 'CONFLICT', '/token');
    expect((await service.call('DELETE', `/token/${minted[0]}`)).status).toBe(204);
    const shortLived = await service.call('POST', '/token', { body: { name: 'short', scopes: ['session:read'], expires_after: '1m' } });
    expect(shortLived.status).toBe(201);
    expectError(await service.call('POST', '/token', { body: { name: 'one-more', scopes: ['session:read'] } }), 409, 'CONFLICT', '/token');
    skew = 2 * 60_000;
    expect((await service.call('POST', '/token', { body: { name: 'after', scopes: ['session:read'] } })).status).toBe(201);
  });
});

describe('tokens per account, minted concurrently', () => {
  const MAX = 10;
  const service = useService({ limits: { streams: { ...DEFAULT_STREAM_LIMITS }, subscriptions: 25, tokens: MAX } });

  it('ends with exactly the cap, however many requests race for the last places', async () => {
    const answers = await Promise.all(
      Array.from({ length: 4 * MAX }, (_, i) => service.call('POST', '/token', { body: { name: `race${i}`, scopes: ['session:read'] } })),
    );
    // The bootstrap token is one.
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(MAX - 1);
    for (const refused of answers.filter((answer) => answer.status !== 201)) expectError(refused, 409, 'CONFLICT', '/token');
    expect((await service.call('GET', '/token')).json.tokens).toHaveLength(MAX);
  });
});


describe('webhook subscriptions per account, created concurrently', () => {
  const MAX = 3;
  const service = useService({ limits: { streams: { ...DEFAULT_STREAM_LIMITS }, subscriptions: MAX, tokens: 500 } });

  it('ends with exactly the cap, however many requests race for the last places', async () => {
    const answers = await Promise.all(
      Array.from({ length: 4 * MAX }, (_, i) => service.call('POST', '/subscription', { body: { url: `http://127.0.0.1:9/hook${i}` } })),
    );
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(MAX);
    for (const refused of answers.filter((answer) => answer.status !== 201)) expectError(refused, 409, 'CONFLICT', '/subscription');
    expect((await service.call('GET', '/subscription')).json.subscriptions).toHaveLength(MAX);
  });
});

describe('webhook subscriptions per receiver', () => {
  const service = useService({ limits: { streams: { ...DEFAULT_STREAM_LIMITS }, subscriptions: 25, tokens: 500 } });
  const subscribe = (url: string) => service.call('POST', '/subscription', { body: { url } });

  it('refuses a second subscription of the account to one url, however spelled or raced (each copy was another POST per event)', async () => {
    const first = await subscribe('http://127.0.0.1:9/hooks/../hook#a');
    expect(first.status).toBe(201);
    expect(first.json.url).toBe('http://127.0.0.1:9/hook');
    for (const spelling of ['http://127.0.0.1:9/hook', 'http://127.0.0.1:9/./hook#b', 'http://127.0.0.1:09/hook#', 'HTTP://127.0.0.1:9/hook']) {
      const again = await subscribe(spelling);
      expectError(again, 409, 'CONFLICT', '/subscription');
      expect(again.json.details).toContain(first.json.id);
    }
    // The insert itself refuses: of racing creates of a new url, one lands.
    const raced = await Promise.all(Array.from({ length: 6 }, () => subscribe('http://127.0.0.1:9/raced')));
    expect(raced.filter((answer) => answer.status === 201)).toHaveLength(1);
    for (const refused of raced.filter((answer) => answer.status !== 201)) expectError(refused, 409, 'CONFLICT', '/subscription');
    // Another query is another receiver; a deleted subscription's url is free again.
    expect((await subscribe('http://127.0.0.1:9/hook?env=staging')).status).toBe(201);
    expect((await service.call('DELETE', `/subscription/${first.json.id}`)).status).toBe(204);
    expect((await subscribe('http://127.0.0.1:9/hook')).status).toBe(201);
    expect((await service.call('GET', '/subscription')).json.subscriptions.map((s: { url: string }) => s.url).sort()).toEqual([
      'http://127.0.0.1:9/hook',
      'http://127.0.0.1:9/hook?env=staging',
      'http://127.0.0.1:9/raced',
    ]);
  });
});
