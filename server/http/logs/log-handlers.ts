/** A session's output (the spec's Logs tag): read, or followed until the session ends. */
import type { Handlers } from '../../../generated/handlers.js';
import type { Sessions } from '../../domain/sessions.js';
import { DEFAULT_TURN_STALL_MS, PerKeySlots } from '../../limits/per-key-slots.js';
import { fail } from '../errors.js';
import { tooManyStreams, type OpenStreams } from '../open-streams.js';

/**
 * Log reads (not follows) open at once per account; more wait their turn (each holds an engine
 * stream). Follows are capped on their own (OpenStreams: LOG_FOLLOWS_PER_ACCOUNT) and take no
 * read slot: they last as long as their sessions, so eight of them held every slot and a read
 * behind them was never answered (outside check 8). A read ends by itself, or is cut once its
 * client takes nothing of it (stalled-answers.ts: eight unread reads held the slots for good,
 * outside check 9), so its queue moves.
 */
export const LOG_READS_PER_ACCOUNT = 8;

/** The Retry-After of a read that waited in vain: slots come back as their reads end. */
const READ_RETRY_AFTER_SECONDS = 5;

export function logHandlers(
  sessions: Sessions,
  open: OpenStreams,
  /**
   * A read waiting for a slot is answered 429 once no read of its account has given one back for
   * this long: the holders are clients taking a log slowly (a few KB a second is not stalled, and
   * a log is tens of MB), and a request held without an answer is worse than one told to retry.
   */
  turnStallMs = DEFAULT_TURN_STALL_MS,
): Pick<Handlers, 'getSessionLogs'> {
  const logReads = new PerKeySlots(LOG_READS_PER_ACCOUNT);
  return {
    async getSessionLogs({ query }, context) {
      const follow = query.follow ?? false;
      // A follow is held open: capped per account, and ended when its token stops authenticating.
      const lease = follow ? open.open('logs', context.principal) : undefined;
      if (lease && 'full' in lease) return tooManyStreams(context, 'log follows', lease);
      let slot = () => {};
      if (!lease) {
        const turn = await logReads.acquireUnlessStalled(context.principal.accountId, context.signal, turnStallMs);
        if (!turn) {
          return {
            ...fail(context, 'TOO_MANY_REQUESTS', {
              details: `the account's ${LOG_READS_PER_ACCOUNT} log reads at once gave no turn back for ${Math.round(turnStallMs / 1000)} s (their clients take them slowly); retry after Retry-After seconds`,
            }),
            headers: { 'Retry-After': String(READ_RETRY_AFTER_SECONDS) } as Record<string, string>,
          };
        }
        slot = turn;
      }
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
