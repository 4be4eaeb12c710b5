/**
 * The process runtime's per-session flow bound: the fleet's setting, lowered so that every slot,
 * full, holds at most half of the host's conntrack table (there is no count of all sessions
 * together: nft's `ct count` walks its list per new connection), never below the floor; and the
 * start-up warning when even the floor is too many.
 */
import { describe, expect, it } from 'vitest';
import { flowsPerSession, MIN_FLOWS_PER_SESSION, sharedTableWarning } from '../../server/runtime/process/egress-firewall.js';

describe('the outbound flows a session may have open', () => {
  it('is the setting while every slot, full, fits half the table', () => {
    expect(flowsPerSession(4096, 32, 262_144)).toBe(4096);
    expect(sharedTableWarning(4096, 32, 262_144)).toBeUndefined();
  });

  it('is lowered for a fleet of many slots, and never below the floor, which is warned about', () => {
    expect(flowsPerSession(4096, 100, 262_144)).toBe(1310);
    expect(sharedTableWarning(1310, 100, 262_144)).toBeUndefined();
    expect(flowsPerSession(4096, 10_000, 262_144)).toBe(MIN_FLOWS_PER_SESSION);
    expect(sharedTableWarning(MIN_FLOWS_PER_SESSION, 10_000, 262_144)).toMatch(/10000 session slots may hold 640000 outbound connections/);
  });
});
