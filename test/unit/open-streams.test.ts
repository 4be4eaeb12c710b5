/**
 * The caps on long responses (server/http/open-streams.ts): a stream is held only while both its
 * account and the whole service hold fewer of its kind than they may, checked in the same call that
 * holds it, so callers racing for the last slot cannot pass a cap together.
 */
import { afterEach, describe, expect, it } from 'vitest';
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
});
