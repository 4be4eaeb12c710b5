/** A session's output (the spec's Logs tag): read, or followed until the session ends. */
import type { Handlers } from '../../../generated/handlers.js';
import type { Sessions } from '../../domain/sessions.js';
import { PerKeySlots } from '../../limits/per-key-slots.js';
import { fail } from '../errors.js';
import { tooManyStreams, type OpenStreams } from '../open-streams.js';

/** Log reads open at once per account; more wait for one to finish (each holds an engine stream). */
export const LOG_READS_PER_ACCOUNT = 8;
/** How long a log read waits for a slot before it is answered 429 (Retry-After). */
export const LOG_READ_WAIT_MS = 5_000;

export function logHandlers(sessions: Sessions, open: OpenStreams): Pick<Handlers, 'getSessionLogs'> {
  const logReads = new PerKeySlots(LOG_READS_PER_ACCOUNT);
  return {
    async getSessionLogs({ query }, context) {
      const follow = query.follow ?? false;
      // A follow is held open: capped per account, and ended when its token stops authenticating.
      const lease = follow ? open.open('logs', context.principal) : undefined;
      if (lease && 'full' in lease) return tooManyStreams(context, 'log follows', lease);
      let slot: () => void;
      // A read waits its turn a few seconds at most: follows hold their slots while their sessions
      // live, so an unbounded wait behind eight of them never ended (outside check 8).
      const waited = AbortSignal.timeout(LOG_READ_WAIT_MS);
      try {
        slot = await logReads.acquire(context.principal.accountId, AbortSignal.any([context.signal, waited]));
      } catch (error) {
        lease?.release();
        if (waited.aborted && !context.signal.aborted) return tooManyStreams(context, 'log reads', { full: 'the account', limit: LOG_READS_PER_ACCOUNT });
        throw error;
      }
      const release = () => {
        slot();
        lease?.release();
      };
      const stream = await sessions.logs(context.principal.accountId, query.id, {
        follow,
        signal: lease ? AbortSignal.any([context.signal, lease.signal]) : context.signal,
      });
      if (!stream) {
        release();
        return fail(context, 'RESOURCE_NOT_FOUND', { details: `session ${query.id} is unknown` });
      }
      // Whichever comes first: the stream ends (or is destroyed), or the client leaves.
      stream.once('close', release);
      context.signal.addEventListener('abort', release, { once: true });
      return { status: 200, body: stream };
    },
  };
}
