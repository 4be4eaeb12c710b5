/**
 * Docker node health: a failed request makes the heartbeat look at the engine at once, but only
 * an unanswered ping makes the node unavailable (one slow request must not flap every session).
 */
import { describe, expect, it, vi } from 'vitest';
import type { Engine } from '../../server/runtime/docker/engine-client.js';
import { NodeHeartbeat } from '../../server/runtime/docker/node-health.js';

function engineAnswering(answers: () => boolean, failure = () => new Error('connect ECONNREFUSED')): Engine {
  const ping = vi.fn(async () => {
    if (!answers()) throw failure();
    return 'OK';
  });
  return { nodeId: 'n1', api: { ping }, available: true, lost: false, polling: false } as unknown as Engine;
}

describe('the node heartbeat', () => {
  const options = (down: () => void) => ({ heartbeatMs: 60_000, lostAfterMs: 300_000, now: Date.now, down, up: () => {}, lost: () => {} });

  it('keeps a node whose engine still answers its ping available after one failed request', async () => {
    const engine = engineAnswering(() => true);
    const down = vi.fn();
    const heartbeat = new NodeHeartbeat([engine], options(down));
    try {
      await vi.waitFor(() => expect(engine.lastSeen).toBeDefined());
      heartbeat.suspect(engine);
      await vi.waitFor(() => expect(vi.mocked(engine.api.ping)).toHaveBeenCalledTimes(2));
      await new Promise((resolve) => setImmediate(resolve));
      expect(engine.available).toBe(true);
      expect(down).not.toHaveBeenCalled();
    } finally {
      heartbeat.stop();
    }
  });

  it('makes a node unavailable at once when a failed request is followed by an unanswered ping', async () => {
    let answers = true;
    const engine = engineAnswering(() => answers);
    const down = vi.fn();
    const heartbeat = new NodeHeartbeat([engine], options(down));
    try {
      await vi.waitFor(() => expect(engine.lastSeen).toBeDefined());
      answers = false;
      heartbeat.suspect(engine);
      await vi.waitFor(() => expect(down).toHaveBeenCalledTimes(1));
      expect(engine.available).toBe(false);
    } finally {
      heartbeat.stop();
    }
  });

  it('neither makes a node unavailable nor lost while this host is out of file descriptors (EMFILE): the engine was not asked', async () => {
    let answers = true;
    const engine = engineAnswering(() => answers, () => Object.assign(new Error('connect EMFILE /var/run/docker.sock'), { code: 'EMFILE' }));
    const down = vi.fn();
    const lost = vi.fn();
    const heartbeat = new NodeHeartbeat([engine], { ...options(down), lostAfterMs: 0, lost });
    try {
      await vi.waitFor(() => expect(engine.lastSeen).toBeDefined());
      answers = false;
      for (let beat = 2; beat <= 4; beat++) {
        heartbeat.suspect(engine);
        await vi.waitFor(() => expect(vi.mocked(engine.api.ping)).toHaveBeenCalledTimes(beat));
        await new Promise((resolve) => setImmediate(resolve));
      }
      expect(engine.available).toBe(true);
      expect(down).not.toHaveBeenCalled();
      expect(lost).not.toHaveBeenCalled();
    } finally {
      heartbeat.stop();
    }
  });
});
