/** Per-key slots: the bound on concurrent log reads per account. */
import { describe, expect, it } from 'vitest';
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
});
