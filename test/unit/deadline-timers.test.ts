import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DeadlineTimers } from '../../server/domain/deadline-timers.js';

/** Timers over a wall clock the test sets; `due` lists the keys whose deadline came, in order. */
function timers() {
  const state = { clock: 0, due: [] as string[] };
  const deadlines = new DeadlineTimers(() => state.clock);
  const arm = (key: string, dueAt: number) => deadlines.arm(key, dueAt, () => state.due.push(key));
  return { state, deadlines, arm };
}

describe('deadline timers (ttl and start deadlines)', () => {
  beforeEach(() => void vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] }));
  afterEach(() => void vi.useRealTimers());

  it('never calls a deadline before it has come, even when the timer fires early', () => {
    // The clock the deadline is read against lags the timer by a millisecond, as Node's cached
    // loop time can: the timer fires at 2,000 ms while the clock says 1,999.
    const { state, deadlines, arm } = timers();
    arm('s1', 2_000);
    state.clock = 1_999;
    vi.advanceTimersByTime(2_000);
    expect(state.due).toEqual([]);
    state.clock = 2_000;
    vi.advanceTimersByTime(1);
    expect(state.due).toEqual(['s1']);
    deadlines.close();
  });

  it('a wall clock stepped back does not stretch the deadline', () => {
    const { state, arm } = timers();
    arm('s1', 2_000);
    state.clock = 2_000 - 3_600_000;
    vi.advanceTimersByTime(2_000);
    expect(state.due).toEqual(['s1']);
  });

  it('waits out a deadline longer than setTimeout can, in capped steps', () => {
    const { state, arm } = timers();
    const cap = 2 ** 31 - 1;
    const dueAt = 3 * cap;
    arm('s1', dueAt);
    state.clock = cap;
    vi.advanceTimersByTime(cap);
    state.clock = 2 * cap;
    vi.advanceTimersByTime(cap);
    expect(state.due).toEqual([]);
    state.clock = dueAt;
    vi.advanceTimersByTime(cap);
    expect(state.due).toEqual(['s1']);
  });

  it('a cleared deadline never fires, and one armed again fires once, at its new time', () => {
    const { state, arm, deadlines } = timers();
    arm('s1', 1_000);
    deadlines.clear('s1');
    arm('s2', 1_000);
    arm('s2', 3_000);
    state.clock = 2_000;
    vi.advanceTimersByTime(2_000);
    expect(state.due).toEqual([]);
    state.clock = 3_000;
    vi.advanceTimersByTime(1_000);
    expect(state.due).toEqual(['s2']);
    vi.advanceTimersByTime(10_000);
    expect(state.due).toEqual(['s2']);
  });
});
