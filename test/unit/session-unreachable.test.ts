/**
 * Sessions and a runtime whose nodes can become unreachable (the Docker runtime's engines):
 * the `unreachable` event, placement around unavailable nodes, images missing on nodes, and
 * stops requested while a node is away. A fake runtime plays the engines.
 */
import { describe, expect, it } from 'vitest';
import { Catalog } from '../../server/domain/catalog.js';
import { Quota } from '../../server/domain/quota.js';
import { Sessions } from '../../server/domain/sessions.js';
import type { FleetConfig } from '../../server/config/fleet-types.js';
import type { AdoptSpec, LaunchSpec, Runtime, RuntimeEvent } from '../../server/domain/ports/runtime.js';
import { createAccountRepository } from '../../server/store/account-repository.js';
import { createSqliteStore } from '../../server/store/sqlite-store.js';
import { openDatabase } from '../../server/store/sqlite.js';
import { testFleet } from '../support/service.js';

class FakeEngines implements Runtime {
  readonly name = 'fake';
  readonly down = new Set<string>();
  readonly images = new Map<string, Set<string>>();
  readonly started: LaunchSpec[] = [];
  readonly stopped: string[] = [];
  readonly forgotten: string[] = [];
  private listener: (event: RuntimeEvent) => void = () => {};
  /** The runtime knows sessions by key; the tests name them by the id they chose (SESSION_ID). */
  private readonly keys = new Map<string, string>();
  private idOf = (key: string) => [...this.keys].find(([, k]) => k === key)?.[0] ?? key;
  async start(spec: LaunchSpec) {
    this.started.push(spec);
    this.keys.set(spec.env.SESSION_ID!, spec.sessionId);
  }
  async stop(sessionId: string) {
    this.stopped.push(this.idOf(sessionId));
  }
  async adopt(_spec: AdoptSpec) {}
  logs() {
    return undefined;
  }
  artifactRoot() {
    return undefined;
  }
  onEvent(listener: (event: RuntimeEvent) => void) {
    this.listener = listener;
  }
  nodeAvailable(nodeId: string) {
    return !this.down.has(nodeId);
  }
  async hasImage(nodeId: string, image: string) {
    return this.images.get(nodeId)?.has(image) ?? false;
  }
  forget(sessionId: string) {
    this.forgotten.push(this.idOf(sessionId));
  }
  async close() {}
  emit(type: 'running' | 'unreachable' | 'restarting', id: string) {
    this.listener({ type, sessionId: this.keys.get(id) ?? id, at: Date.now() });
  }
  exit(id: string, exitCode: number) {
    this.listener({ type: 'exited', sessionId: this.keys.get(id) ?? id, at: Date.now(), exitCode, signal: null });
  }
}

function setup() {
  const fleet: FleetConfig = testFleet((f) => {
    f.runtime.driver = 'docker';
    const node = f.locations[0]!.nodes[0]!;
    f.locations[0]!.nodes = [
      { ...node, id: 'n1', docker: { engine: 'unix:///run/one.sock' } },
      { ...node, id: 'n2', ports: { from: node.ports.to + 1, to: node.ports.to + 50 }, docker: { engine: 'unix:///run/two.sock' } },
    ];
    f.locations = [f.locations[0]!];
    const tag = f.images[0]!.tags.latest!;
    f.images[0]!.tags.latest = { ports: tag.ports, docker: { image: 'studio/echo:1', memoryMb: 64, cpus: 1, pids: 64 } };
  });
  const db = openDatabase(':memory:');
  const accounts = createSqliteStore(db).accounts;
  createAccountRepository(db).insert({ id: 'acc', name: 'A', email: null, quotaMinutes: 10, usedSeconds: 0, operator: false, disabled: false, created: 0 });
  const quota = new Quota(
    { account: (id) => accounts.findById(id), addUsedSeconds: async () => {}, launchedAt: async () => [], accountsWithLiveSessions: async () => [] },
    { charge: false, terminate: false, graceMs: 0, tickMs: 1000 },
    Date.now,
  );
  const runtime = new FakeEngines();
  runtime.images.set('n1', new Set(['studio/echo:1']));
  runtime.images.set('n2', new Set(['studio/echo:1']));
  const sessions = new Sessions({
    repository: createSqliteStore(db).sessions,
    runtime,
    catalog: new Catalog(fleet, { has: async (_a, _i, tag) => tag === 'pushed', register: async () => {}, all: async () => [] }),
    quota,
    startRate: { take: async () => ({ ok: true }) },
    now: Date.now,
  });
  const start = (id: string, tag?: string) => sessions.start('acc', { id, location: 'local-a', image: 'echo', ...(tag ? { tag } : {}) });
  return { sessions, runtime, start, close: async () => (await sessions.close(), db.close()) };
}

describe('sessions on nodes that can become unreachable', () => {
  it('goes server_unreachable and back to running', async () => {
    const { sessions, runtime, start, close } = setup();
    expect(await start('a')).toMatchObject({ ok: true });
    runtime.emit('running', 'a');
    runtime.emit('unreachable', 'a');
    await expect.poll(async () => (await sessions.get('acc', 'a'))?.status).toBe('server_unreachable');
    runtime.emit('running', 'a');
    await expect.poll(async () => (await sessions.get('acc', 'a'))?.status).toBe('running');
    await close();
  });

  it('places new starts on available nodes only, and answers locked when none is left', async () => {
    const { sessions, runtime, start, close } = setup();
    runtime.down.add('n1');
    expect(await start('b')).toMatchObject({ ok: true, session: { nodeId: 'n2' } });
    expect((await sessions.locations('acc'))[0]).toMatchObject({ status: 'available', capacity: { free: 31 } });
    runtime.down.add('n2');
    expect(await start('c')).toMatchObject({ ok: false, reason: 'no_capacity', why: 'locked' });
    expect((await sessions.locations('acc'))[0]).toMatchObject({ status: 'locked', capacity: { free: 0 } });
    expect(await sessions.availableLocations('acc', 'echo')).toEqual([]);
    await close();
  });

  it('skips nodes without the image, and answers not_found (image) when no node holds it', async () => {
    const { runtime, start, close } = setup();
    runtime.images.get('n1')!.clear();
    expect(await start('d')).toMatchObject({ ok: true, session: { nodeId: 'n2' } });
    expect(runtime.started.at(-1)?.container?.image).toBe('studio/echo:1');
    // A pushed tag runs as the default tag's repository with its own tag.
    const pushed = await start('e', 'pushed');
    expect(pushed).toMatchObject({ ok: false, reason: 'not_found', what: 'image' });
    expect(pushed.ok === false && pushed.reason === 'not_found' && pushed.name).toContain('studio/echo:pushed');
    runtime.images.get('n1')!.add('studio/echo:pushed');
    expect(await start('f', 'pushed')).toMatchObject({ ok: true, session: { nodeId: 'n1', tag: 'pushed' } });
    await close();
  });

  it('ends a session stopped while unreachable at once, and has the runtime clean up later', async () => {
    const { sessions, runtime, start, close } = setup();
    await start('g');
    runtime.emit('running', 'g');
    runtime.emit('unreachable', 'g');
    // Runtime events are applied in the background: the stop comes once the node is unreachable.
    await expect.poll(async () => (await sessions.get('acc', 'g'))?.status).toBe('server_unreachable');
    expect(await sessions.stop('acc', 'g')).toEqual({ ok: true });
    await expect.poll(() => sessions.get('acc', 'g')).toMatchObject({ status: 'dead', endReason: 'stopped' });
    expect(runtime.forgotten).toEqual(['g']);
    await close();
  });

  it('finishes a stop that was under way when the node came back', async () => {
    const { sessions, runtime, start, close } = setup();
    await start('h');
    runtime.emit('running', 'h');
    runtime.stop = async () => {
      runtime.emit('unreachable', 'h');
    };
    await sessions.stop('acc', 'h');
    await expect.poll(() => sessions.get('acc', 'h')).toMatchObject({ status: 'server_unreachable', pendingEndReason: 'stopped' });
    let stopped = 0;
    runtime.stop = async () => void stopped++;
    runtime.emit('running', 'h');
    await expect.poll(() => stopped).toBe(1);
    await expect.poll(async () => (await sessions.get('acc', 'h'))?.status).toBe('shuttingdown');
    expect(stopped).toBe(1);
    runtime.exit('h', 0);
    await expect.poll(() => sessions.get('acc', 'h')).toMatchObject({ status: 'exited', endReason: 'stopped', exitCode: 0 });
    await close();
  });

  it('records a stop that completed while unreachable with its reason', async () => {
    const { sessions, runtime, start, close } = setup();
    await start('i');
    runtime.emit('running', 'i');
    runtime.stop = async () => runtime.emit('unreachable', 'i');
    await sessions.stop('acc', 'i');
    runtime.exit('i', 0);
    await expect.poll(() => sessions.get('acc', 'i')).toMatchObject({ status: 'dead', endReason: 'stopped', exitCode: 0 });
    await close();
  });
});
