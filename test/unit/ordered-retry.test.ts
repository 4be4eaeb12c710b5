import { afterEach, describe, expect, it, vi } from 'vitest';
import { OrderedRetry } from '../../server/domain/ordered-retry.js';

describe('OrderedRetry (runtime events that could not be recorded)', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('retries a failing item before any later item of its key, and reports failure and recovery', async () => {
    vi.useFakeTimers();
    let full = true;
    const done: string[] = [];
    const reports: string[] = [];
    const retry = new OrderedRetry<{ key: string; name: string }>({
      key: (item) => item.key,
      run: async (item) => {
        if (full && item.key === 's1') throw Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
        done.push(item.name);
      },
      reporter: { failed: (component) => (reports.push(`failed ${component}`), 'id'), recovered: (component) => void reports.push(`recovered ${component}`) },
      component: 'runtime-events',
      retryMs: 1000,
    });
    retry.push({ key: 's1', name: 'running' });
    retry.push({ key: 's2', name: 'other session' });
    retry.push({ key: 's1', name: 'exited' });
    await vi.advanceTimersByTimeAsync(0);
    expect(done).toEqual(['other session']);
    expect(retry.waiting).toBe(1);
    await vi.advanceTimersByTimeAsync(1000);
    expect(done).toEqual(['other session']);
    full = false;
    await vi.advanceTimersByTimeAsync(1000);
    expect(done).toEqual(['other session', 'running', 'exited']);
    expect(retry.waiting).toBe(0);
    expect(reports.filter((r) => r.startsWith('failed'))).toHaveLength(2);
    expect(reports.at(-1)).toBe('recovered runtime-events');
  });
});
