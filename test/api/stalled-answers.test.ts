/**
 * Answers whose client takes nothing (outside check 9, F13 and F16): raw sockets ask for a large
 * answer, take its first bytes and then nothing more, as a stuck consumer or a paused `curl | less`
 * does. Each held its answer (a list's sessions, a log read's slot) for as long as its connection
 * lived: 500 unread lists held 4.4 GB, and eight unread log reads kept every other log read of the
 * account waiting for good. Now such an answer is cut once the socket has refused more for
 * `stalledAnswerMs` (a quiet follow, which writes nothing, is not); lists with `all=true` and log
 * reads are served a few at a time per account, and a request whose turn does not come within
 * `turnStallMs` of the queue's last move is 429 with Retry-After.
 */
import { existsSync, readdirSync, readFileSync, truncateSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SERVER_LIMITS } from '../../server/http/request-limits.js';
import { LOG_READS_PER_ACCOUNT } from '../../server/http/logs/log-handlers.js';
import { RETAINED_LISTS_PER_ACCOUNT } from '../../server/http/sessions/session-handlers.js';
import { eventually } from '../support/eventually.mjs';
import { expectError, rawUnreadGet, type UnreadAnswer } from '../support/http.js';
import { useService } from '../support/service.js';
import { waitForStatus } from '../support/sessions.js';

const STALLED_MS = 1000;
const TURN_STALL_MS = 500;
/** Past loopback's socket buffers on both ends (a few MB each): an unread answer stalls. */
const LOG_BYTES = 30 * 1024 * 1024;

/** A GET whose client takes the answer's first bytes and then nothing more; the service answered it. */
async function heldAnswer(url: string, path: string, token: string): Promise<UnreadAnswer> {
  const answer = await rawUnreadGet(url, path, token);
  expect(answer.status, path).toBe(200);
  return answer;
}

const labels = Object.fromEntries(Array.from({ length: 64 }, (_, i) => [`l${i}`, 'x'.repeat(1024)]));

/** Enough ended sessions of ~66 KB of labels that the account's whole list (~12 MB) outlasts the socket buffers. */
async function bigAccount(service: ReturnType<typeof useService>): Promise<void> {
  for (let i = 0; i < 180; i++) {
    expect((await service.call('POST', '/session', { body: { id: `big-${i}`, location: 'local-a', image: 'echo', labels } })).status).toBe(201);
    // Ended at once (retained, listed with all=true): the fleet's places are few.
    expect((await service.call('DELETE', `/session/big-${i}`)).status).toBe(204);
  }
}

describe('a session list whose client takes nothing', () => {
  const service = useService({ runtime: 'simulated', http: { ...DEFAULT_SERVER_LIMITS, stalledAnswerMs: STALLED_MS } });

  it('is cut once the client has taken nothing for the stall time, and the next list is answered', async () => {
    await bigAccount(service);
    const held = await Promise.all(Array.from({ length: RETAINED_LISTS_PER_ACCOUNT }, () => heldAnswer(service.running.url, '/session?all=true', service.running.token)));
    // Every turn is held; this one waits for a cut (the stall time, not the 30 s turn deadline).
    const next = await fetch(`${service.running.url}/session?all=true`, { headers: { Authorization: `Bearer ${service.running.token}` } });
    expect(next.status).toBe(200);
    const whole = (await next.json()) as { sessions: unknown[] };
    expect(whole.sessions).toHaveLength(180);
    for (const answer of held) expect((await answer.rest()).complete).toBe(false);
  }, 60_000);
});

describe('lists with all=true while the account holds every turn', () => {
  const service = useService({ runtime: 'simulated', limits: { streams: { events: 20, logs: 8, artifacts: 4 }, subscriptions: 25, turnStallMs: TURN_STALL_MS } });

  it(`serves ${RETAINED_LISTS_PER_ACCOUNT} at a time per account: one more waits, then is 429 with Retry-After; live lists are not held up`, async () => {
    await bigAccount(service);
    const held = await Promise.all(Array.from({ length: RETAINED_LISTS_PER_ACCOUNT }, () => heldAnswer(service.running.url, '/session?all=true', service.running.token)));
    const refused = await service.call('GET', '/session?all=true&limit=1');
    expectError(refused, 429, 'TOO_MANY_REQUESTS', '/session');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // Live sessions are in memory: they take no turn.
    expect((await service.call('GET', '/session?limit=1')).status).toBe(200);
    // The clients leave: their turns come back.
    for (const answer of held) answer.socket.destroy();
    await eventually(async () => (await service.call('GET', '/session?all=true&limit=1')).status === 200, { what: 'a turn given back' });
  }, 60_000);
});

/** An ended echo session whose output.log is LOG_BYTES long (sparse: cheap on disk). */
async function bigLog(service: ReturnType<typeof useService>, id: string): Promise<void> {
  expect((await service.call('POST', '/session', { body: { id, location: 'local-a', image: 'echo' } })).status).toBe(201);
  await waitForStatus(service.call, id, ['running']);
  expect((await service.call('DELETE', `/session/${id}`)).status).toBe(204);
  await waitForStatus(service.call, id, ['exited', 'dead']);
  const sessions = join(service.running.dataDir, 'sessions');
  const summaryOf = (key: string) => join(sessions, key, 'work', 'summary.json');
  const key = readdirSync(sessions).find((dir) => existsSync(summaryOf(dir)) && JSON.parse(readFileSync(summaryOf(dir), 'utf8')).session === id);
  truncateSync(join(sessions, key!, 'output.log'), LOG_BYTES);
}

describe('log reads whose client takes nothing', () => {
  const service = useService({ runtime: 'process', http: { ...DEFAULT_SERVER_LIMITS, stalledAnswerMs: STALLED_MS } });

  it(`are cut once the client has taken nothing for the stall time: the ${LOG_READS_PER_ACCOUNT} slots come back and the next read is answered whole`, async () => {
    await bigLog(service, 'loud');
    const held = await Promise.all(Array.from({ length: LOG_READS_PER_ACCOUNT }, () => heldAnswer(service.running.url, '/logs?id=loud', service.running.token)));
    const next = await fetch(`${service.running.url}/logs?id=loud`, { headers: { Authorization: `Bearer ${service.running.token}` } });
    expect(next.status).toBe(200);
    expect((await next.arrayBuffer()).byteLength).toBe(LOG_BYTES);
    for (const answer of held) expect((await answer.rest()).complete).toBe(false);
  }, 60_000);

  it('keeps a follow of a quiet game open however long it writes nothing, and ends it whole with the session', async () => {
    expect((await service.call('POST', '/session', { body: { id: 'quiet', location: 'local-a', image: 'echo' } })).status).toBe(201);
    await waitForStatus(service.call, 'quiet', ['running']);
    const follow = await heldAnswer(service.running.url, '/logs?id=quiet&follow=true', service.running.token);
    // Several stall times of silence (the client takes nothing, but nothing waits for it).
    await new Promise((resolve) => setTimeout(resolve, 4 * STALLED_MS));
    expect((await service.call('DELETE', '/session/quiet')).status).toBe(204);
    expect((await follow.rest()).complete).toBe(true);
  }, 60_000);
});

describe('log reads while the account holds every read slot', () => {
  const service = useService({ runtime: 'process', limits: { streams: { events: 20, logs: 8, artifacts: 4 }, subscriptions: 25, turnStallMs: TURN_STALL_MS } });

  it('answer one more 429 with Retry-After once no slot came back for the turn deadline, and serve it once one does', async () => {
    await bigLog(service, 'loud');
    const held = await Promise.all(Array.from({ length: LOG_READS_PER_ACCOUNT }, () => heldAnswer(service.running.url, '/logs?id=loud', service.running.token)));
    const refused = await service.call('GET', '/logs?id=loud');
    expectError(refused, 429, 'TOO_MANY_REQUESTS', '/logs');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    held[0]!.socket.destroy();
    await eventually(async () => (await service.call('GET', '/logs?id=loud')).status === 200, { what: 'a read slot given back' });
    for (const answer of held) answer.socket.destroy();
  }, 60_000);
});
