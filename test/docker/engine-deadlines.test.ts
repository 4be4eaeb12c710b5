/**
 * An engine that takes a stop or an archive request and never answers does not hold a session's
 * end forever: both calls have deadlines of their own (server/runtime/docker/reconciler.ts). The
 * engine here is a proxy on a unix socket in front of a real one that passes every request on
 * except those it is told to hold. And an engine whose clock is off has its times translated
 * (server/runtime/docker/engine-clock.ts): the proxy then shifts the times it answers.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RuntimeEvent } from '../../server/domain/ports/runtime.js';
import { openEngine } from '../../server/runtime/docker/engine-client.js';
import { DockerRuntime } from '../../server/runtime/docker/docker-runtime.js';
import { collectGarbage } from '../../server/runtime/docker/garbage-collection.js';
import { Reconciler, type Tracked } from '../../server/runtime/docker/reconciler.js';
import { SessionFiles } from '../../server/runtime/docker/session-files.js';
import { docker, engines, IMAGE, skipReason } from '../support/docker.js';
import { eventually } from '../support/eventually.mjs';
import { freePort } from '../support/free-port.js';
import { tempDirs } from '../support/temp-dirs.js';
import { containerLaunch } from '../support/launch-specs.js';

const tempDir = tempDirs('engine-deadlines-');
const NODE = 'held-1';
/** Far past the deadlines below: a call still unsettled by then has none. */
const SETTLES_WITHIN_MS = 20_000;

/**
 * Passes one request on to the engine at `target` and its answer back, unless `keep` takes the
 * answer itself (to drop or rewrite it). Headers at once: an event stream's come long before its first event, and the
 * runtime waits for them.
 */
function forward(target: string, req: IncomingMessage, res: ServerResponse, keep: (answer: IncomingMessage) => boolean = () => true): void {
  const upstream = request({ socketPath: target, method: req.method, path: req.url, headers: req.headers }, (answer) => {
    if (!keep(answer)) return;
    res.writeHead(answer.statusCode!, answer.headers);
    res.flushHeaders();
    answer.pipe(res);
  });
  upstream.on('error', () => res.destroy());
  req.pipe(upstream);
}

/** The engine at `target`, except that requests `hold` matches ("METHOD /path", or a test of it) are never answered. */
async function holdingProxy(target: string, hold: RegExp | ((request: string) => boolean)): Promise<{ engine: string; held: () => number; close(): Promise<void> }> {
  const socket = join(tempDir(), 'engine.sock');
  const pending: ServerResponse[] = [];
  const holds = typeof hold === 'function' ? hold : (request: string) => hold.test(request);
  const server = createServer((req, res) => {
    if (holds(`${req.method} ${req.url}`)) return void pending.push(res);
    forward(target, req, res);
  });
  await new Promise<void>((resolve) => server.listen(socket, resolve));
  return {
    engine: `unix://${socket}`,
    held: () => pending.length,
    close: () => {
      for (const res of pending) res.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * The engine at `target` as a node whose clock is `shiftMs` off would answer: the times of a
 * container's inspect (Created, StartedAt, FinishedAt) and the engine's own (SystemTime) shifted.
 */
async function shiftedClockProxy(target: string, shiftMs: number): Promise<{ engine: string; close(): Promise<void> }> {
  const socket = join(tempDir(), 'engine.sock');
  const shift = (iso: unknown) => (typeof iso === 'string' && Date.parse(iso) > 0 ? new Date(Date.parse(iso) + shiftMs).toISOString() : iso);
  const server = createServer((req, res) => {
    const rewrite = req.method === 'GET' && /\/(containers\/[^/]+\/json|info)(\?|$)/.test(req.url!);
    forward(target, req, res, (answer) => {
      if (!rewrite || answer.statusCode !== 200) return true;
      const chunks: Buffer[] = [];
      answer.on('data', (chunk: Buffer) => chunks.push(chunk));
      answer.on('end', () => {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        if (body.State) for (const key of ['StartedAt', 'FinishedAt']) body.State[key] = shift(body.State[key]);
        for (const key of ['Created', 'SystemTime']) if (key in body) body[key] = shift(body[key]);
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      });
      return false;
    });
  });
  await new Promise<void>((resolve) => server.listen(socket, resolve));
  return { engine: `unix://${socket}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/**
 * The engine at `target` cut off from the service mid-start while `partitioned()`: a container
 * start reaches the engine but its answer never comes back, removals and pings never arrive.
 * Afterwards every request passes (what was held is dropped).
 */
async function partitionedProxy(target: string, partitioned: () => boolean): Promise<{ engine: string; close(): Promise<void> }> {
  const socket = join(tempDir(), 'engine.sock');
  const dropped: ServerResponse[] = [];
  const server = createServer((req, res) => {
    const what = `${req.method} ${req.url}`;
    if (partitioned() && /^(DELETE \S*\/containers\/|GET \S*\/_ping)/.test(what)) return void dropped.push(res);
    const answerLost = partitioned() && /^POST \S*\/containers\/[^/]+\/start/.test(what);
    forward(target, req, res, (answer) => {
      if (!answerLost) return true;
      answer.resume();
      dropped.push(res);
      return false;
    });
  });
  await new Promise<void>((resolve) => server.listen(socket, resolve));
  return {
    engine: `unix://${socket}`,
    close: () => {
      for (const res of dropped) res.destroy();
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** Resolves with what `work` resolves with, or fails once it has not settled in SETTLES_WITHIN_MS. */
function settles<T>(work: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} still waiting after ${SETTLES_WITHIN_MS} ms`)), SETTLES_WITHIN_MS);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

describe.skipIf(engines.length < 1)(`the Docker runtime's engine calls${engines.length < 1 ? ` (skipped: ${skipReason})` : ''}`, () => {
  const real = engines[0]!;
  let containerId: string;

  beforeAll(async () => {
    const container = await docker(real).createContainer({
      Image: IMAGE,
      Entrypoint: ['/usr/local/bin/node'],
      Cmd: ['-e', 'setInterval(() => {}, 1000)'],
      WorkingDir: '/tmp',
      Labels: { 'session-host.test': 'engine-deadlines' },
    });
    await container.start();
    containerId = container.id;
  });

  afterAll(async () => {
    await docker(real).getContainer(containerId).remove({ force: true }).catch(() => {});
  });

  /** A reconciler whose only node's engine is `engine`, with deadlines of a second. */
  function reconcilerOn(engine: string) {
    const events: RuntimeEvent[] = [];
    const failed: string[] = [];
    const files = new SessionFiles(tempDir());
    const reconciler = new Reconciler({
      engines: new Map([[NODE, openEngine(NODE, { engine })]]),
      files,
      instance: 'engine-deadlines-test',
      graceMs: 1000,
      now: Date.now,
      emit: (event) => events.push(event),
      closed: () => false,
      engineFailed: (failing) => failed.push(failing.nodeId),
      deadlines: { stopSlackMs: 1000, archiveMs: 1000 },
      gone: () => {},
    });
    const tracked: Tracked = {
      sessionId: 'held-session',
      nodeId: NODE,
      containerId,
      ports: [],
      workDir: '/tmp',
      restart: false,
      phase: 'running',
      unreachable: false,
      checking: false,
      forgotten: false,
    };
    reconciler.tracked.set(tracked.sessionId, tracked);
    return { reconciler, tracked, events, failed, files };
  }

  /** The test container, running again (a test before may have ended it). */
  async function running(): Promise<void> {
    await docker(real).getContainer(containerId).start().catch(() => {});
  }

  it('kills a container whose stop the engine never answers, and ends its session', async () => {
    await running();
    const proxy = await holdingProxy(real.slice('unix://'.length), /^POST \S*\/containers\/[^/]+\/stop/);
    try {
      const { reconciler, tracked, events } = reconcilerOn(proxy.engine);
      await settles(reconciler.stop(tracked), 'the stop');
      expect(proxy.held()).toBe(1);
      expect(events).toEqual([expect.objectContaining({ type: 'exited', sessionId: tracked.sessionId, exitCode: 137 })]);
      expect((await docker(real).getContainer(containerId).inspect()).State.Running).toBe(false);
    } finally {
      await proxy.close();
    }
  });

  it('kills again, after a pause, when the first kill is not answered either, and ends the session', async () => {
    await running();
    let kills = 0;
    const stopOrFirstKill = (request: string) => /^POST \S*\/containers\/[^/]+\/stop/.test(request) || (/^POST \S*\/containers\/[^/]+\/kill/.test(request) && ++kills === 1);
    const proxy = await holdingProxy(real.slice('unix://'.length), stopOrFirstKill);
    try {
      const { reconciler, tracked, events } = reconcilerOn(proxy.engine);
      await settles(reconciler.stop(tracked), 'the stop');
      expect([proxy.held(), kills]).toEqual([2, 2]);
      expect(events).toEqual([expect.objectContaining({ type: 'exited', sessionId: tracked.sessionId, exitCode: 137 })]);
      expect((await docker(real).getContainer(containerId).inspect()).State.Running).toBe(false);
    } finally {
      await proxy.close();
    }
  });

  it('looks for the end again when the engine does not answer the inspect after the kill', async () => {
    await running();
    let killed = false;
    let inspectsHeld = 0;
    const stopOrInspectAfterKill = (request: string) => {
      if (/^POST \S*\/containers\/[^/]+\/kill/.test(request)) killed = true;
      const inspect = killed && /^GET \S*\/containers\/[^/]+\/json/.test(request) && ++inspectsHeld === 1;
      return inspect || /^POST \S*\/containers\/[^/]+\/stop/.test(request);
    };
    const proxy = await holdingProxy(real.slice('unix://'.length), stopOrInspectAfterKill);
    try {
      const { reconciler, tracked, events, failed } = reconcilerOn(proxy.engine);
      await settles(reconciler.stop(tracked), 'the stop');
      expect(failed).toEqual([NODE]);
      await settles(eventually(() => events.length > 0), 'the end found again');
      expect(events).toEqual([expect.objectContaining({ type: 'exited', sessionId: tracked.sessionId, exitCode: 137 })]);
    } finally {
      await proxy.close();
    }
  });

  it('loses a session whose container neither stops nor dies while its engine answers, instead of leaving it shutting down', async () => {
    await running();
    const proxy = await holdingProxy(real.slice('unix://'.length), /^POST \S*\/containers\/[^/]+\/(stop|kill)/);
    try {
      const { reconciler, tracked, events, failed } = reconcilerOn(proxy.engine);
      await settles(reconciler.stop(tracked), 'the stop');
      // The stop and three kills.
      expect(proxy.held()).toBe(4);
      expect(events).toEqual([expect.objectContaining({ type: 'lost', sessionId: tracked.sessionId })]);
      expect(reconciler.tracked.has(tracked.sessionId)).toBe(false);
      expect(failed).toEqual([]);
    } finally {
      await proxy.close();
    }
  });

  it('leaves the stop to the engine\'s return when the engine does not answer at all', async () => {
    await running();
    const proxy = await holdingProxy(real.slice('unix://'.length), /^(POST \S*\/containers\/[^/]+\/(stop|kill)|GET \S*\/_ping)/);
    try {
      const { reconciler, tracked, events, failed } = reconcilerOn(proxy.engine);
      await settles(reconciler.stop(tracked), 'the stop');
      // The stop, three kills and the ping.
      expect(proxy.held()).toBe(5);
      expect(events).toEqual([]);
      expect(tracked.forgotten).toBe(true);
      expect(failed).toEqual([NODE]);
    } finally {
      await proxy.close();
    }
  });

  it("records a container's end on the service's clock when its engine's clock is a day ahead or behind", async () => {
    for (const shiftMs of [86_400_000, -86_400_000]) {
      await running();
      const proxy = await shiftedClockProxy(real.slice('unix://'.length), shiftMs);
      try {
        const { reconciler, tracked, events } = reconcilerOn(proxy.engine);
        await settles(reconciler.stop(tracked), 'the stop');
        expect(events).toEqual([expect.objectContaining({ type: 'exited', sessionId: tracked.sessionId })]);
        // The engine's FinishedAt as it is: a day off the launch, so a day charged, or none.
        expect(Math.abs(events[0]!.at - Date.now())).toBeLessThan(10_000);
      } finally {
        await proxy.close();
      }
    }
  });

  it("keeps an ended container for its retention when its engine's clock is a day behind (its end is read on the service's clock)", async () => {
    const instance = 'engine-clock-test';
    const container = await docker(real).createContainer({
      Image: IMAGE,
      Entrypoint: ['/usr/local/bin/node'],
      Cmd: ['-e', ''],
      Labels: { 'session-host.instance': instance, 'session-host.session': 'ended-an-hour-ago-at-most' },
    });
    await container.start();
    await container.wait();
    const proxy = await shiftedClockProxy(real.slice('unix://'.length), -86_400_000);
    try {
      const engine = openEngine(NODE, { engine: proxy.engine });
      await collectGarbage({ engines: [engine], files: new SessionFiles(tempDir()), instance, isLive: () => false, cutoff: Date.now() - 3_600_000, now: Date.now });
      // Read as it is, its end lay a day back, past the hour's retention: removed at once.
      expect((await docker(real).getContainer(container.id).inspect()).State.Status).toBe('exited');
    } finally {
      await proxy.close();
      await container.remove({ force: true }).catch(() => {});
    }
  });

  it('removes, once its engine is back, the container of a start whose answer was lost with the engine', async () => {
    let partitioned = true;
    const proxy = await partitionedProxy(real.slice('unix://'.length), () => partitioned);
    const dataDir = tempDir();
    const runtime = new DockerRuntime({
      dataDir,
      nodes: [{ id: NODE, docker: { engine: proxy.engine, publishIp: '127.0.0.1' } }],
      graceMs: 1000,
      retentionHours: 1,
      now: Date.now,
      owner: 'engine-deadlines-partition',
      nodeLostAfterMs: 300_000,
      pullTimeoutMs: 60_000,
    });
    const sessionId = 'acc/partitioned-start';
    const ofSession = () => docker(real).listContainers({ all: true, filters: { label: [`session-host.session=${sessionId}`] } });
    try {
      const port = await freePort();
      const start = runtime.start(containerLaunch('partitioned-start', IMAGE, NODE, port));
      // The start fails (its answer never came, nor could the container be removed)...
      await expect(settles(start, 'the start')).rejects.toThrow();
      // ...while the engine runs the container, on a host port the store would give the next session.
      expect((await ofSession()).map((c) => c.State)).toEqual(['running']);
      partitioned = false;
      await settles(eventually(async () => (await ofSession()).length === 0, { timeoutMs: 15_000 }), 'the container removed');
    } finally {
      await runtime.close();
      for (const c of await ofSession()) await docker(real).getContainer(c.Id).remove({ force: true, v: true }).catch(() => {});
      await proxy.close();
      const mounts = readFileSync('/proc/mounts', 'utf8').split('\n').map((line) => line.split(' ')[1] ?? '');
      for (const mount of mounts) if (mount.startsWith(`${dataDir}/`)) execFileSync('umount', ['-l', mount]);
    }
  }, 60_000);

  it('ends a session whose archive the engine never sends, saying its artifacts were not copied', async () => {
    await docker(real).getContainer(containerId).stop({ t: 0 }).catch(() => {});
    const proxy = await holdingProxy(real.slice('unix://'.length), /^GET \S*\/containers\/[^/]+\/archive/);
    try {
      const { reconciler, tracked, events, files } = reconcilerOn(proxy.engine);
      await settles(reconciler.finish(tracked), 'the end of the session');
      expect(proxy.held()).toBe(1);
      expect(events).toEqual([expect.objectContaining({ type: 'exited', sessionId: tracked.sessionId })]);
      expect(files.readEnd(tracked.sessionId)?.artifacts?.truncated).toMatch(/^not copied: no archive from the engine within 1000 ms/);
    } finally {
      await proxy.close();
    }
  });
});
