import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { StartDeadlines } from '../../server/domain/start-deadlines.js';

describe('start deadlines', () => {
  beforeEach(() => void vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] }));
  afterEach(() => void vi.useRealTimers());

  it('never ends a session before its deadline, even when the timer fires early', () => {
    // The clock the deadline is read against lags the timer by a millisecond, as Node's cached
    // loop time can: the timer fires at 2,000 ms while the clock says 1,999.
    let clock = 0;
    const missed: string[] = [];
    const deadlines = new StartDeadlines(() => clock, (id) => missed.push(id));
    deadlines.arm('s1', 2_000);
    clock = 1_999;
    vi.advanceTimersByTime(2_000);
    expect(missed).toEqual([]);
    clock = 2_000;
    vi.advanceTimersByTime(1);
    expect(missed).toEqual(['s1']);
    deadlines.close();
  });

  it('a wall clock stepped back does not stretch the deadline', () => {
    let clock = 0;
    const missed: string[] = [];
    const deadlines = new StartDeadlines(() => clock, (id) => missed.push(id));
    deadlines.arm('s1', 2_000);
    clock = 2_000 - 3_600_000;
    vi.advanceTimersByTime(2_000);
    expect(missed).toEqual(['s1']);
  });

  it('a cleared deadline never fires', () => {
    let clock = 0;
    const missed: string[] = [];
    const deadlines = new StartDeadlines(() => clock, (id) => missed.push(id));
    deadlines.arm('s1', 1_000);
    deadlines.clear('s1');
    clock = 5_000;
    vi.advanceTimersByTime(5_000);
    expect(missed).toEqual([]);
  });
});
