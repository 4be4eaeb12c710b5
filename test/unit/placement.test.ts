import { describe, expect, it } from 'vitest';
import { freePorts, place } from '../../server/domain/placement.js';
import type { NodeConfig } from '../../server/config/fleet-types.js';

const node = (id: string, capacity: number, locked = false, from = 100, to = 109): NodeConfig => ({
  id,
  host: '127.0.0.1',
  ports: { from, to },
  capacity,
  locked,
});

describe('placement', () => {
  it('takes the lowest free ports of a node', () => {
    expect(freePorts({ from: 100, to: 105 }, new Set([100, 102]), 3)).toEqual([101, 103, 104]);
    expect(freePorts({ from: 100, to: 102 }, new Set([101]), 3)).toBeUndefined();
  });

  it('prefers the unlocked node with the most free slots', () => {
    const nodes = [node('a', 4), node('b', 4), node('c', 10, true)];
    const used: Record<string, number> = { a: 3, b: 1, c: 0 };
    const result = place(nodes, (id) => used[id]!, () => new Set(), 2);
    expect(result).toMatchObject({ ok: true, node: { id: 'b' }, ports: [100, 101] });
  });

  it('says locked when every node is locked, and full when no unlocked node has room', () => {
    expect(place([node('a', 4, true)], () => 0, () => new Set(), 1)).toEqual({ ok: false, reason: 'locked' });
    expect(place([node('a', 1), node('b', 4, true)], () => 1, () => new Set(), 1)).toEqual({ ok: false, reason: 'full' });
  });

  it('skips a node whose ports are exhausted even with slots left', () => {
    const nodes = [node('a', 10, false, 100, 101), node('b', 1, false, 200, 201)];
    const result = place(nodes, () => 0, (n) => new Set(n.id === 'a' ? [100, 101] : []), 2);
    expect(result).toMatchObject({ ok: true, node: { id: 'b' }, ports: [200, 201] });
  });
});
