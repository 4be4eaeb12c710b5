/**
 * The caps on long responses (server/http/open-streams.ts): a stream is held only while both its
 * account and the whole service hold fewer of its kind than they may, checked in the same call that
 * holds it, so callers racing for the last slot cannot pass a cap together.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Principal } from '../../server/domain/tokens.js';
import { OpenStreams, type StreamLease, type StreamsFull } from '../../server/http/open-streams.js';

const principal = (accountId: string) => ({ accountId, tokenId: `token-${accountId}` }) as Principal;
const held = (result: StreamLease | StreamsFull): StreamLease => {
  if ('full' in result) throw new Error(`refused: ${result.full} is full`);
  return result;
};

describe('open streams', () => {
  let streams: OpenStreams | undefined;
  afterEach(() => streams?.endAll());

  it("holds an artifact download only within both its account's cap and the service's, in one call", () => {
    streams = new OpenStreams({ events: 20, logs: 8, artifacts: 2 }, async () => true, { artifacts: 3 });
    const a1 = held(streams.open('artifacts', principal('a')));
    held(streams.open('artifacts', principal('a')));
    expect(streams.open('artifacts', principal('a'))).toEqual({ full: 'the account', limit: 2 });
    held(streams.open('artifacts', principal('b')));
    // The service holds 3: every account is refused now, whatever its own count.
    expect(streams.open('artifacts', principal('c'))).toEqual({ full: 'the service', limit: 3 });
    expect(streams.open('artifacts', principal('b'))).toEqual({ full: 'the service', limit: 3 });
    // Other kinds have no service-wide cap.
    held(streams.open('events', principal('c')));
    a1.release();
    held(streams.open('artifacts', principal('c')));
    expect(streams.open('artifacts', principal('b'))).toEqual({ full: 'the service', limit: 3 });
  });

  // Outside check oc3: a download read slowly but steadily is never cut as stalled, and one account
  // held both of the service's archive slots for as long as it read that way.
  it("leaves at least half of a service-wide cap to the other accounts", () => {
    streams = new OpenStreams({ events: 20, logs: 8, artifacts: 4 }, async () => true, { artifacts: 2 });
    held(streams.open('artifacts', principal('a')));
    expect(streams.open('artifacts', principal('a'))).toEqual({ full: 'the account', limit: 1, shareOf: 2 });
    held(streams.open('artifacts', principal('b')));
    expect(streams.open('artifacts', principal('c'))).toEqual({ full: 'the service', limit: 2 });
  });

  it('never runs two sweeps at once: a tick during a pass is skipped, a call waits for it and then runs its own', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      // A store that answers only when told: a pass takes as long as this test wants.
      const asked: ((live: boolean) => void)[] = [];
      streams = new OpenStreams({ events: 20, logs: 8, artifacts: 4 }, () => new Promise<boolean>((answer) => asked.push(answer)));
      const lease = held(streams.open('events', principal('a')));
      vi.advanceTimersByTime(250);
      expect(asked).toHaveLength(1);
      // Ten more ticks while that pass waits: none starts another (unguarded, ten more asks piled up).
      vi.advanceTimersByTime(2500);
      expect(asked).toHaveLength(1);
      const called = streams.sweep();
      await Promise.resolve();
      expect(asked).toHaveLength(1);
      // The first pass ends; the call's own pass starts after it, and sees the token revoked meanwhile.
      asked[0]!(true);
      await vi.waitFor(() => expect(asked).toHaveLength(2));
      asked[1]!(false);
      await called;
      expect(lease.signal.aborted).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });
});
