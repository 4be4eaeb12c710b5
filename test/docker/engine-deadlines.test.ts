/**
 * An engine that takes a stop or an archive request and never answers does not hold a session's
 * end forever: both calls have deadlines of their own (server/runtime/docker/reconciler.ts). The
 * engine here is a proxy on a unix socket in front of a real one that passes every request on
 * except those it is told to hold. And an engine whose clock is off has its times translated
 * (server/runtime/docker/engine-clock.ts): the proxy then shifts the times it answers.
 */
import { createServer, request, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RuntimeEvent } from '../../server/domain/ports/runtime.js';
import { openEngine } from '../../server/runtime/docker/engine-client.js';
import { collectGarbage } from '../../server/runtime/docker/garbage-collection.js';
import { Reconciler, type Tracked } from '../../server/runtime/docker/reconciler.js';
import { SessionFiles } from '../../server/runtime/docker/session-files.js';
import { docker, engines, IMAGE, skipReason } from '../support/docker.js';
import { eventually } from '../support/eventually.mjs';
import { tempDirs } from '../support/temp-dirs.js';

const tempDir = tempDirs('engine-deadlines-');
const NODE = 'held-1';
/** Far past the deadlines below: a call still unsettled by then has none. */
const SETTLES_WITHIN_MS = 20_000;

/** The engine at `target`, except that requests `hold` matches ("METHOD /path", or a test of it) are never answered. */
async function holdingProxy(target: string, hold: RegExp | ((request: string) => boolean)): Promise<{ engine: string; held: () => number; close(): Promise<void> }> {
  const socket = join(tempDir(), 'engine.sock');
  const pending: ServerResponse[] = [];
  const holds = typeof hold === 'function' ? hold : (request: string) => hold.test(request);
  const server = createServer((req, res) => {
    if (holds(`${req.method} ${req.url}`)) return void pending.push(res);
    const upstream = request({ socketPath: target, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode!, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
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
    const upstream = request({ socketPath: target, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      if (!rewrite || answer.statusCode !== 200) {
        res.writeHead(answer.statusCode!, answer.headers);
        return void answer.pipe(res);
      }
      const chunks: Buffer[] = [];
      answer.on('data', (chunk: Buffer) => chunks.push(chunk));
      answer.on('end', () => {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        if (body.State) for (const key of ['StartedAt', 'FinishedAt']) body.State[key] = shift(body.State[key]);
        for (const key of ['Created', 'SystemTime']) if (key in body) body[key] = shift(body[key]);
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      });
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(socket, resolve));
  return { engine: `unix://${socket}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
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
