/**
 * What a game server leaves in its directory cannot hang or exhaust the service through
 * `GET /artifacts`: a FIFO is skipped (tar would wait on it for good, holding the response and
 * the files it had opened), an abandoned download closes the files it opened, and an account
 * holds a bounded number of downloads at once (429 beyond).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { get, type IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually.mjs';
import { expectError, rawUnreadGet } from '../support/http.js';
import { DEFAULT_SERVER_LIMITS } from '../../server/http/request-limits.js';
import { useService } from '../support/service.js';
import { waitForStatus } from '../support/sessions.js';

const DOWNLOADS = 3;

/** A session of `service` started and stopped; its working directory (the echo server's summary names its session). */
async function endedSession(service: ReturnType<typeof useService>, id: string): Promise<string> {
  expect((await service.call('POST', '/session', { body: { id, location: 'local-a', image: 'echo' } })).status).toBe(201);
  await waitForStatus(service.call, id, ['running']);
  expect((await service.call('DELETE', `/session/${id}`)).status).toBe(204);
  await waitForStatus(service.call, id, ['exited', 'dead']);
  const sessions = join(service.running.dataDir, 'sessions');
  const summaryOf = (key: string) => join(sessions, key, 'work', 'summary.json');
  const key = readdirSync(sessions).find((dir) => existsSync(summaryOf(dir)) && JSON.parse(readFileSync(summaryOf(dir), 'utf8')).session === id);
  return join(sessions, key!, 'work');
}

describe('artifact downloads', () => {
  // The service streams twice the account's downloads: one account holds at most half of them.
  const service = useService({ runtime: 'process', limits: { streams: { events: 20, logs: 8, artifacts: DOWNLOADS }, subscriptions: 25, archives: { concurrent: 2 * DOWNLOADS, maxBytes: 1024 ** 3 } } });

  /** An ended session whose working directory holds what a hostile game server could leave. */
  async function endedSessionWith(id: string, files: (work: string) => void): Promise<string> {
    const work = await endedSession(service, id);
    files(work);
    return work;
  }

  /** A download whose client reads its first bytes and then holds it (or goes away). */
  function openDownload(id: string): Promise<IncomingMessage> {
    const url = new URL(`/artifacts?session=${id}`, service.running.url);
    return new Promise((resolve, reject) => {
      get(url, { headers: { authorization: `Bearer ${service.running.token}` }, agent: false }, (response) => {
        response.once('readable', () => resolve(response));
      }).once('error', reject);
    });
  }

  /** The service's (this process's) descriptors open on files under `dir`. */
  const openFilesUnder = (dir: string) =>
    readdirSync('/proc/self/fd').filter((fd) => {
      try {
        return readlinkSync(`/proc/self/fd/${fd}`).startsWith(dir);
      } catch {
        return false;
      }
    }).length;

  it('archives the files beside a FIFO, and skips the FIFO', async () => {
    await endedSessionWith('fifo', (work) => {
      writeFileSync(join(work, 'replay.txt'), 'kept');
      execFileSync('mkfifo', [join(work, 'pipe')]);
    });
    const archive = await service.call('GET', '/artifacts?session=fifo');
    expect(archive.status).toBe(200);
    const dir = mkdtempSync(join(tmpdir(), 'artifacts-'));
    writeFileSync(join(dir, 'a.tar'), archive.text, 'latin1');
    const listed = execFileSync('tar', ['tf', 'a.tar'], { cwd: dir, encoding: 'utf8' }).split('\n').map((name) => name.replace(/^\.\//, ''));
    expect(listed).toContain('replay.txt');
    expect(listed.some((name) => name.includes('pipe'))).toBe(false);
  });

  it('survives a directory nested past PATH_MAX: the download fails, the service stays up', async () => {
    const work = await endedSessionWith('deep', (work) => {
      const name = 'd'.repeat(200);
      execFileSync('/bin/sh', ['-c', `cd "$1" && i=0; while [ $i -lt 25 ]; do mkdir ${name} && cd ${name}; i=$((i+1)); done; echo x > f`, 'sh', work]);
    });
    const download = await openDownload('deep').catch(() => undefined);
    download?.resume();
    await new Promise((resolve) => (download ? download.once('close', resolve) : resolve(undefined)));
    // Still answering (tar's second error used to have no listener and end the process).
    expect((await service.call('GET', '/session/deep')).json.id).toBe('deep');
    execFileSync('/bin/rm', ['-rf', work]);
  });

  it('closes the files an abandoned download opened, and frees its slot', { timeout: 60_000 }, async () => {
    const work = await endedSessionWith('big', (dir) => {
      // Sparse: large to read, nothing on disk.
      for (const name of ['a.bin', 'b.bin', 'c.bin']) {
        writeFileSync(join(dir, name), '');
        truncateSync(join(dir, name), 16 * 1024 * 1024);
      }
    });
    for (let round = 0; round < 4; round++) {
      const downloads = await Promise.all(Array.from({ length: DOWNLOADS }, () => openDownload('big')));
      // All slots held: one more is refused, with a time to come back.
      const refused = await service.call('GET', '/artifacts?session=big');
      expectError(refused, 429, 'TOO_MANY_REQUESTS', '/artifacts');
      expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
      // Each holds a file open while its client sits on it (tar stats and opens its entries in
      // the background after the first bytes went out, so a busy machine may take a moment).
      await eventually(() => openFilesUnder(work) > 0, { what: 'the held downloads holding files open' });
      for (const download of downloads) download.destroy();
      // The slots come back once the abandoned archives are done with.
      await eventually(async () => {
        const next = await openDownload('big');
        next.destroy();
        return next.statusCode === 200;
      }, { what: 'a download slot freed' });
    }
    // Nothing of the abandoned archives stays open (without the drain, each held its files for good).
    await eventually(() => openFilesUnder(work) === 0, { timeoutMs: 20_000, what: 'no file of the session open' });
  });
});

describe('artifact archives, service-wide', () => {
  // Larger than loopback's socket buffers, so a client that reads nothing holds its download.
  const MAX_BYTES = 40 * 1024 * 1024;
  const service = useService({
    runtime: 'process',
    limits: { streams: { events: 20, logs: 8, artifacts: 3 }, subscriptions: 25, archives: { concurrent: 1, maxBytes: MAX_BYTES } },
  });

  /** A whole download's raw bytes, and whether it ended complete or was cut. */
  function download(id: string, gzip: boolean): Promise<{ status: number; bytes: Buffer; complete: boolean }> {
    const url = new URL(`/artifacts?session=${id}`, service.running.url);
    const headers = { authorization: `Bearer ${service.running.token}`, ...(gzip ? { 'accept-encoding': 'gzip' } : {}) };
    return new Promise((resolve, reject) => {
      get(url, { headers, agent: false }, (response) => {
        const chunks: Buffer[] = [];
        let complete = false;
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => (complete = true));
        response.on('error', () => {});
        response.on('close', () => resolve({ status: response.statusCode!, bytes: Buffer.concat(chunks), complete }));
      }).once('error', reject);
    });
  }

  it('cuts an archive whose files pass the byte cap (sparse files count by their size), and streams one below it whole', async () => {
    const work = await endedSession(service, 'sparse');
    writeFileSync(join(work, 'small.txt'), 'kept');
    const whole = await download('sparse', false);
    expect(whole.status).toBe(200);
    expect(whole.complete).toBe(true);
    for (const name of ['a.bin', 'b.bin']) {
      writeFileSync(join(work, name), '');
      truncateSync(join(work, name), 30 * 1024 * 1024);
    }
    const cut = await download('sparse', false);
    expect(cut.complete).toBe(false);
    expect(cut.bytes.length).toBeLessThan(MAX_BYTES + 64 * 1024);
    // Its slot comes back (the drain read at most the cap).
    await eventually(async () => (await download('sparse', true)).status === 200, { what: 'the slot freed' });
  });

  it('compresses at the fastest level (gzip header XFL 4)', async () => {
    await endedSession(service, 'fast');
    const gz = await download('fast', true);
    expect(gz.status).toBe(200);
    expect(gz.bytes[0]).toBe(0x1f);
    expect(gz.bytes[8]).toBe(4);
  });

  /** A download of `id` whose client reads nothing once its response began. */
  const heldDownload = (id: string) =>
    new Promise<IncomingMessage>((resolve, reject) => {
      const url = new URL(`/artifacts?session=${id}`, service.running.url);
      get(url, { headers: { authorization: `Bearer ${service.running.token}` }, agent: false }, (response) => {
        if (response.statusCode !== 200) response.resume();
        response.once(response.statusCode === 200 ? 'readable' : 'end', () => resolve(response));
      }).once('error', reject);
    });

  /** An ended session whose archive is past the socket buffers (a 2 MiB one could be sent whole before the next request came), below the cap. */
  async function heldSession(id: string) {
    const work = await endedSession(service, id);
    for (const name of ['a.bin', 'b.bin']) {
      writeFileSync(join(work, name), '');
      truncateSync(join(work, name), 15 * 1024 * 1024);
    }
  }

  it('streams a bounded number of archives at once across accounts: one more is 429 with Retry-After', async () => {
    await heldSession('held');
    const first = await heldDownload('held');
    // The account may hold 3; the service streams 1.
    const refused = await service.call('GET', '/artifacts?session=held');
    expectError(refused, 429, 'TOO_MANY_REQUESTS', '/artifacts');
    expect(refused.json.details).toContain('the service');
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    first.destroy();
    await eventually(async () => (await download('held', false)).complete, { what: 'the service-wide slot freed' });
  });

  it('lets one of several downloads asked at once through the service-wide slot, and refuses the rest', async () => {
    await heldSession('raced');
    const answers = await Promise.all(Array.from({ length: 3 }, () => heldDownload('raced')));
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 429, 429]);
    for (const answer of answers) answer.destroy();
    await eventually(async () => (await download('raced', false)).complete, { what: 'the service-wide slot freed' });
  });
});

describe('artifact archives whose client stops reading', () => {
  const IDLE_MS = 1000;
  const service = useService({
    runtime: 'process',
    limits: { streams: { events: 20, logs: 8, artifacts: 3 }, subscriptions: 25, archives: { concurrent: 1, maxBytes: 1024 ** 3 } },
    http: { ...DEFAULT_SERVER_LIMITS, stalledAnswerMs: IDLE_MS },
  });

  it('cuts a download its client takes nothing of, and frees its slot for the next', async () => {
    const work = await endedSession(service, 'stalled');
    // Past loopback's socket buffers: a client that reads nothing stalls it.
    writeFileSync(join(work, 'a.bin'), '');
    truncateSync(join(work, 'a.bin'), 30 * 1024 * 1024);
    const stalled = await rawUnreadGet(service.running.url, '/artifacts?session=stalled', service.running.token);
    expect(stalled.status).toBe(200);
    // Never read on, never closed by the client (which, paused, would not even see the service
    // close it): the service cuts it, and the next download has the slot.
    await endedSession(service, 'next');
    await eventually(async () => (await service.call('GET', '/artifacts?session=next')).status === 200, { what: 'the slot freed' });
    stalled.socket.destroy();
  }, 30_000);
});
