/** A session's output (the spec's Logs tag): read, or followed until the session ends. */
import type { Handlers } from '../../../generated/handlers.js';
import type { Sessions } from '../../domain/sessions.js';
import { PerKeySlots } from '../../limits/per-key-slots.js';
import { fail } from '../errors.js';
import { tooManyStreams, type OpenStreams } from '../open-streams.js';

/**
 * Log reads (not follows) open at once per account; more wait their turn (each holds an engine
 * stream). Follows are capped on their own (OpenStreams: LOG_FOLLOWS_PER_ACCOUNT) and take no
 * read slot: they last as long as their sessions, so eight of them held every slot and a read
 * behind them was never answered (outside check 8). A read ends by itself, so its queue moves.
 */
export const LOG_READS_PER_ACCOUNT = 8;

export function logHandlers(sessions: Sessions, open: OpenStreams): Pick<Handlers, 'getSessionLogs'> {
  const logReads = new PerKeySlots(LOG_READS_PER_ACCOUNT);
  return {
    async getSessionLogs({ query }, context) {
      const follow = query.follow ?? false;
      // A follow is held open: capped per account, and ended when its token stops authenticating.
      const lease = follow ? open.open('logs', context.principal) : undefined;
      if (lease && 'full' in lease) return tooManyStreams(context, 'log follows', lease);
      let slot = () => {};
      if (!lease) slot = await logReads.acquire(context.principal.accountId, context.signal);
      const release = () => {
        slot();
        lease?.release();
      };
      let stream;
      try {
        stream = await sessions.logs(context.principal.accountId, query.id, {
          follow,
          signal: lease ? AbortSignal.any([context.signal, lease.signal]) : context.signal,
        });
      } catch (error) {
        release();
        throw error;
      }
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
