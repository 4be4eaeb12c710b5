import { describe, expect, it } from 'vitest';
import { endReasonOf, reactions } from '../../server/domain/session-reactions.js';
import { canTransition, isFinal, type SessionStatus } from '../../server/domain/session-states.js';

describe('the runtime-event reactions table', () => {
  const rows = Object.entries(reactions).flatMap(([event, byStatus]) =>
    Object.entries(byStatus).map(([from, reaction]) => ({ event, from: from as SessionStatus, reaction: reaction! })),
  );

  it('takes only paths the transition table allows, from live states', () => {
    for (const { event, from, reaction } of rows) {
      expect(isFinal(from), `${event} from ${from}`).toBe(false);
      const steps = [from, ...reaction.path];
      for (let i = 1; i < steps.length; i++) expect(canTransition(steps[i - 1]!, steps[i]!), `${event}: ${steps.join(' -> ')}`).toBe(true);
    }
  });

  it('gives an end reason exactly to the paths that end the session, and only there', () => {
    for (const { event, reaction } of rows) {
      const ends = isFinal(reaction.path.at(-1)!);
      expect(reaction.endReason !== undefined, `${event} -> ${reaction.path.join(', ')}`).toBe(ends);
      expect(reaction.path.slice(0, -1).some(isFinal)).toBe(false);
    }
  });

  it('ends every live session that its runtime reports exited or lost', () => {
    const live = (Object.keys(reactions.exited) as SessionStatus[]).sort();
    expect(Object.keys(reactions.lost).sort()).toEqual(live);
    expect(live).toEqual(['created', 'draining', 'restarting', 'running', 'server_unreachable', 'shuttingdown']);
  });

  it('decides the end reason from the stop under way and the exit code', () => {
    expect(endReasonOf('pending', null, 0)).toBe('stopped');
    expect(endReasonOf('pending', 'ttl_expired', 1)).toBe('ttl_expired');
    expect(endReasonOf('exit-code', 'stopped', 0)).toBe('exited');
    expect(endReasonOf('exit-code', null, 137)).toBe('crashed');
    expect(endReasonOf('exit-code', null, null)).toBe('crashed');
    expect(endReasonOf('pending-or-exit-code', 'quota_exhausted', 1)).toBe('quota_exhausted');
    expect(endReasonOf('pending-or-exit-code', null, 0)).toBe('exited');
    expect(endReasonOf('node_lost', 'stopped', 0)).toBe('node_lost');
  });
});
