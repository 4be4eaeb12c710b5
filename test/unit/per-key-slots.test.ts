/** Per-key slots: the bound on concurrent log reads per account. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PerKeySlots } from '../../server/limits/per-key-slots.js';

const never = new AbortController().signal;

describe('PerKeySlots', () => {
  it('lets `limit` in per key, queues the rest in order, and hands slots over on release', async () => {
    const slots = new PerKeySlots(2);
    const order: string[] = [];
    const a = await slots.acquire('acc', never);
    const b = await slots.acquire('acc', never);
    const other = await slots.acquire('other', never);
    const c = slots.acquire('acc', never).then((release) => (order.push('c'), release));
    const d = slots.acquire('acc', never).then((release) => (order.push('d'), release));
    await Promise.resolve();
    expect(order).toEqual([]);
    a();
    a(); // twice: still one slot
    const releaseC = await c;
    expect(order).toEqual(['c']);
    b();
    await d;
    expect(order).toEqual(['c', 'd']);
    releaseC();
    other();
  });

  it('drops an aborted waiter from the queue', async () => {
    const slots = new PerKeySlots(1);
    const first = await slots.acquire('acc', never);
    const controller = new AbortController();
    const aborted = slots.acquire('acc', controller.signal);
    controller.abort(new Error('client went away'));
    await expect(aborted).rejects.toThrow('client went away');
    first();
    // The slot is free again, not handed to the aborted waiter.
    const again = await slots.acquire('acc', never);
    again();
  });

  it('tries: a slot while the key has one free, none (and no wait) when it holds all', () => {
    const slots = new PerKeySlots(2);
    const a = slots.tryAcquire('acc')!;
    const b = slots.tryAcquire('acc')!;
    expect(slots.tryAcquire('acc')).toBeUndefined();
    expect(slots.tryAcquire('other')).toBeDefined();
    a();
    a();
    const c = slots.tryAcquire('acc');
    expect(c).toBeDefined();
    expect(slots.tryAcquire('acc')).toBeUndefined();
    b();
    c!();
  });

  describe('a waiter with a stall deadline', () => {
    afterEach(() => vi.useRealTimers());

    it('gives up once no slot of its key was given back for the deadline, and leaves the queue', async () => {
      vi.useFakeTimers();
      const slots = new PerKeySlots(1);
      const holder = await slots.acquire('acc', never);
      const waiting = slots.acquireUnlessStalled('acc', never, 10_000);
      await vi.advanceTimersByTimeAsync(10_000);
      expect(await waiting).toBeUndefined();
      holder();
      // The slot went back to the key, not to the waiter that gave up.
      expect(slots.tryAcquire('acc')).toBeDefined();
    });

    it('waits on while the queue moves: each slot given back restarts its deadline', async () => {
      vi.useFakeTimers();
      const slots = new PerKeySlots(1);
      const first = await slots.acquire('acc', never);
      const second = slots.acquire('acc', never);
      const patient = slots.acquireUnlessStalled('acc', never, 10_000);
      let settled = false;
      void patient.then(() => (settled = true));
      await vi.advanceTimersByTimeAsync(8_000);
      first(); // the queue moves: the second read has the slot
      const releaseSecond = await second;
      await vi.advanceTimersByTimeAsync(8_000);
      expect(settled).toBe(false); // 16 s waited, but the queue moved 8 s ago
      releaseSecond();
      const release = await patient;
      expect(release).toBeDefined();
      release!();
    });
  });
});
