/**
 * Session ids are unique per account, not globally: the same scenario for every runtime. Two
 * accounts start a session with the same id; each sees, plays, reads, stops and downloads only
 * its own, and the admin API names a session by account and id.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { ContractRecorder } from './contract.js';
import { openEventStream } from './events.js';
import { caller, type CallResult } from './http.js';
import { TEST_ADMIN, type RunningService } from './service.js';
import { hostPort, udpExchange, waitForStatus } from './sessions.js';

type Call = ReturnType<typeof caller>;

export interface Twin {
  accountId: string;
  token: string;
  call: Call;
}

/** The bootstrap account and a second one onboarded now, each with a caller of its own. */
export async function twinAccounts(running: RunningService, contract: ContractRecorder): Promise<[Twin, Twin]> {
  const other = await running.service.onboard({ name: `Other Studio ${Math.random()}`, quotaMinutes: 100, operator: false });
  return [
    { accountId: running.service.bootstrapped!.accountId, token: running.token, call: caller(running.url, running.token, contract) },
    { ...other, call: caller(running.url, other.token, contract) },
  ];
}

/** The same accounts, calling another service (the one restarted on the same data). */
export function rebind(twins: readonly Twin[], running: RunningService, contract: ContractRecorder): Twin[] {
  return twins.map((twin) => ({ ...twin, call: caller(running.url, twin.token, contract) }));
}

/** A panel caller (cookie and CSRF token), signed in as the test operator. */
export async function panelCaller(running: RunningService, contract: ContractRecorder): Promise<Call> {
  const call = caller(running.url, '', contract);
  const signedIn = await call('POST', '/admin/api/auth', { token: null, body: TEST_ADMIN });
  expect(signedIn.status).toBe(200);
  const cookie = signedIn.headers.get('set-cookie')!.split(';')[0]!;
  return (method, path, options = {}) =>
    call(method, path, { ...options, token: null, headers: { Cookie: cookie, 'X-CSRF-Token': signedIn.json.csrf_token, ...options.headers } });
}

/** Both accounts start `id`: both 201, both running, each on its own ports. */
export async function startTwins(twins: readonly Twin[], id: string, where: { location: string; image: string; timeoutMs?: number }) {
  const started: CallResult[] = [];
  for (const [i, twin] of twins.entries()) {
    started.push(await twin.call('POST', '/session', { body: { id, location: where.location, image: where.image, labels: { owner: `twin-${i}` } } }));
  }
  expect(started.map((s) => s.status)).toEqual(twins.map(() => 201));
  const sessions = await Promise.all(twins.map((twin) => waitForStatus(twin.call, id, ['running'], where.timeoutMs)));
  expect(new Set(sessions.map((s) => hostPort(s, 'udp'))).size).toBe(twins.length);
  return sessions;
}

/** The whole scenario, on a service whose fleet has `where`. */
export async function provePerAccountIds(running: RunningService, contract: ContractRecorder, where: { location: string; image: string; timeoutMs?: number }) {
  const twins = await twinAccounts(running, contract);
  const [a, b] = twins;
  const id = `twin-${Math.random().toString(36).slice(2, 10)}`;
  const [sessionA, sessionB] = await startTwins(twins, id, where);

  // Reusing one's own id is still a conflict; the other account's is not.
  expect((await a.call('POST', '/session', { body: { id, location: where.location, image: where.image } })).status).toBe(409);

  // Each sees its own, by id and in its list.
  for (const [i, twin] of twins.entries()) {
    expect((await twin.call('GET', `/session/${id}`)).json.labels).toEqual({ owner: `twin-${i}` });
    const listed = (await twin.call('GET', '/session?all=true')).json.sessions.filter((s: { id: string }) => s.id === id);
    expect(listed.map((s: { labels: object }) => s.labels)).toEqual([{ owner: `twin-${i}` }]);
  }
  // Each game server is its own: A's gets three datagrams, B's one now and one later (their logs and artifacts count them).
  for (const session of [sessionA, sessionA, sessionA, sessionB]) {
    expect(await udpExchange(session.host, hostPort(session, 'udp'), 'ping')).toBe(`echo ${id} ping`);
  }

  // Players of one are not the other's.
  expect((await a.call('PUT', '/session/player/join', { body: { session: id, players: ['p-a'] } })).json.players).toEqual(['p-a']);
  expect((await b.call('GET', `/session/${id}`)).json.players.joined).toEqual([]);
  expect((await b.call('PUT', '/session/player/join', { body: { session: id, players: ['p-b'] } })).json.players).toEqual(['p-b']);
  expect((await a.call('DELETE', '/session/player/leave', { body: { players: ['p-b'] } })).status).toBe(404);
  expect((await a.call('GET', `/session/${id}`)).json.players.joined).toEqual(['p-a']);

  // Events: B's stream, replayed from the start, holds none of A's.
  const stream = await openEventStream(running.url, b.token, '0');
  const changes = (all: { data: string }[]) => all.map((e) => JSON.parse(e.data)).filter((e) => e.session.id === id);
  const events = await stream.waitFor((all) => changes(all).some((e) => e.status === 'running'));
  stream.close();
  expect(changes(events).map((e) => e.session.labels.owner)).toEqual(['twin-1', 'twin-1']);

  // The admin API: the id alone is ambiguous (409 naming both accounts); with the account, exact.
  const panel = await panelCaller(running, contract);
  const ambiguous = await panel('DELETE', `/admin/api/session/${id}`);
  expect(ambiguous.status).toBe(409);
  expect(ambiguous.json.details).toContain(a.accountId);
  expect(ambiguous.json.details).toContain(b.accountId);
  expect((await panel('GET', `/admin/api/session/${id}/logs`)).status).toBe(409);
  const listed = (await panel('GET', '/admin/api/session')).json.sessions.filter((s: { id: string }) => s.id === id);
  expect(listed.map((s: { account: string }) => s.account).sort()).toEqual([a.accountId, b.accountId].sort());

  // Stopping A's (through the panel, naming A) leaves B's running and reachable.
  expect((await panel('DELETE', `/admin/api/session/${id}?account=${encodeURIComponent(a.accountId)}`)).status).toBe(204);
  await waitForStatus(a.call, id, ['exited'], where.timeoutMs);
  expect((await b.call('GET', `/session/${id}`)).json.status).toBe('running');
  expect(await udpExchange(sessionB.host, hostPort(sessionB, 'udp'), 'still?')).toBe(`echo ${id} still?`);
  // A's artifacts are ready; B's session still runs, so B has none yet.
  expect((await b.call('GET', `/artifacts?session=${id}`)).status).toBe(409);

  expect((await b.call('DELETE', `/session/${id}`)).status).toBe(204);
  await waitForStatus(b.call, id, ['exited'], where.timeoutMs);
  // Logs (the account's and the panel's) and artifacts: each its own game server's.
  for (const [twin, datagrams] of [[a, 3], [b, 2]] as const) {
    const said = `echo server for session ${id} stopping after ${datagrams} datagrams`;
    expect((await twin.call('GET', `/logs?id=${id}`)).text).toContain(said);
    expect((await panel('GET', `/admin/api/session/${id}/logs?account=${encodeURIComponent(twin.accountId)}`)).text).toContain(said);
    expect(await artifactSummary(running, twin.token, id)).toMatchObject({ datagrams });
  }
}

/** The echo server's summary.json out of the session's artifacts. */
async function artifactSummary(running: RunningService, token: string, id: string): Promise<unknown> {
  const archive = await fetch(`${running.url}/artifacts?session=${id}`, { headers: { Authorization: `Bearer ${token}` } });
  expect(archive.status).toBe(200);
  const dir = mkdtempSync(join(tmpdir(), 'twin-artifacts-'));
  try {
    writeFileSync(join(dir, 'a.tar'), Buffer.from(await archive.arrayBuffer()));
    execFileSync('tar', ['xf', 'a.tar'], { cwd: dir });
    return JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
