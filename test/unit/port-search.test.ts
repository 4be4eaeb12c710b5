/**
 * Placement takes the lowest free ports of a node's range. It walked the range from its start,
 * past every port live sessions hold: per start, work that grew with the live sessions (issue 19:
 * with sessions ending 800 ms after their stop, the live set grows with the pair rate). The read
 * model's view of a host's ports now tells the search where to begin, and is told where it
 * found a free port; what it answers must stay what a walk from the start finds.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { freePorts } from '../../server/domain/placement.js';
import type { PortsInUse } from '../../server/domain/ports/sessions.js';
import { LiveSessions } from '../../server/store/live-sessions.js';
import { session } from '../support/store-records.js';

const ranges = [
  { from: 100, to: 139 },
  { from: 120, to: 129 },
];

/** A plain copy of what is held: placement's answer without any hint. */
const plain = (view: PortsInUse, to: number): PortsInUse => {
  const held = new Set<number>();
  for (let port = 0; port <= to; port++) if (view.has(port)) held.add(port);
  return held;
};

/** Places a session of `count` ports the way a start does: the lowest free ones of the range. */
function start(live: LiveSessions, id: string, range: { from: number; to: number }, count: number, compare = true): boolean {
  const view = live.portsOn('127.0.0.1');
  const expected = compare ? freePorts(range, plain(view, range.to), count) : undefined;
  const ports = freePorts(range, view, count);
  if (compare) expect(ports).toEqual(expected);
  if (!ports) return false;
  live.put(session(id, { key: id, ports: ports.map((host, i) => ({ name: `p${i}`, type: 'udp' as const, container: 7000 + i, host })) }));
  return true;
}

describe('the search for free ports', () => {
  it('finds what a walk from the range\'s start finds, through any starts and ends', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ end: fc.boolean(), pick: fc.nat(), range: fc.constantFrom(0, 1), count: fc.integer({ min: 1, max: 3 }) }), { maxLength: 120 }),
        (steps) => {
          const live = new LiveSessions([]);
          const keys: string[] = [];
          steps.forEach((step, i) => {
            if (step.end && keys.length > 0) live.delete(keys.splice(step.pick % keys.length, 1)[0]!);
            else if (start(live, `s${i}`, ranges[step.range]!, step.count)) keys.push(`s${i}`);
          });
        },
      ),
    );
  });

  it('asks about the ports it finds, not about every held one below them', () => {
    const live = new LiveSessions([]);
    const range = { from: 10_000, to: 59_999 };
    for (let i = 0; i < 1000; i++) start(live, `s${i}`, range, 2, false);
    // The oldest ends; its ports are the lowest free now.
    live.delete('s0');
    const view = live.portsOn('127.0.0.1') as PortsInUse & Map<number, number>;
    let asked = 0;
    const has = view.has.bind(view);
    view.has = (port: number) => (asked++, has(port));
    const counting = view;
    expect(freePorts(range, counting, 2)).toEqual([10_000, 10_001]);
    live.put(session('again', { key: 'again', ports: [10_000, 10_001].map((host, i) => ({ name: `p${i}`, type: 'udp' as const, container: 7000 + i, host })) }));
    asked = 0;
    expect(freePorts(range, counting, 2)).toEqual([12_000, 12_001]);
    expect(asked).toBeLessThanOrEqual(4);
  });
});
