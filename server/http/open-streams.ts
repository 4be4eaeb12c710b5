/**
 * The long responses in flight: event streams, log follows and artifact downloads. Each is held under the token
 * that opened it: per account there is a cap on each kind, and a sweep a few times a second
 * ends every stream whose token would no longer authenticate (revoked, expired, disabled, its
 * account disabled), so revocation reaches open streams within a second. A shutdown ends all.
 */
import type { Principal } from '../domain/tokens.js';
import { tokenBucket } from '../runtime/token-bucket.mjs';
import type { RequestContext } from './context.js';
import { fail } from './errors.js';

export type StreamKind = 'events' | 'logs' | 'artifacts';

/** Open streams per account and kind (README, Limits; admin-configurable with STREAMS_*). */
export interface StreamLimits {
  events: number;
  logs: number;
  /** Each reads a session's files from disk as fast as its client takes them. */
  artifacts: number;
}

/** Follows: as many as there are log-read slots per account (LOG_READS_PER_ACCOUNT), so one more is refused, not queued. */
export const DEFAULT_STREAM_LIMITS: StreamLimits = { events: 20, logs: 8, artifacts: 4 };
const SWEEP_MS = 250;
/**
 * New event streams per account: a burst of twice as many as it may hold, then one a second. Each new
 * stream serializes a snapshot of every live session of the account (labels and players), so a
 * client reconnecting in a loop held the event loop (outside check 9: 62 ms of CPU an open).
 */
export const EVENT_STREAM_OPENS = { perSecond: 1 };
/** Accounts whose buckets are kept at most (full ones are dropped first: they hold nothing). */
const MAX_BUCKETS = 10_000;

/** A held stream: abort ends it (the handler listens); release when it has ended. */
export interface StreamLease {
  signal: AbortSignal;
  release(): void;
}

/** Why a stream was refused: who holds the most allowed of its kind. */
export interface StreamsFull {
  full: 'the account' | 'the service';
  limit: number;
  /** The account holds its share (`limit`) of a service-wide cap of this many. */
  shareOf?: number;
  /** Refused for opening too many too fast (event streams): when the next may open. */
  retryAfterSeconds?: number;
}

interface Held {
  kind: StreamKind;
  accountId: string;
  tokenId: string;
  abort: AbortController;
}

export class OpenStreams {
  private readonly held = new Set<Held>();
  /** Per account, the event streams it may still open now (EVENT_STREAM_OPENS). */
  private readonly opens = new Map<string, ReturnType<typeof tokenBucket>>();
  private readonly timer: NodeJS.Timeout;
  /** The pass under way: a tick skips while one runs, so a slow store never piles passes up. */
  private running: Promise<void> | undefined;

  constructor(
    private readonly limits: StreamLimits,
    /** Whether the token still authenticates. */
    private readonly isLive: (tokenId: string) => Promise<boolean>,
    /** Open streams of a kind across all accounts, at most (artifact downloads: they hold the thread pool). */
    private readonly serviceWide: Partial<Record<StreamKind, number>> = {},
  ) {
    this.timer = setInterval(() => {
      if (!this.running) void this.sweep().catch(() => {});
    }, SWEEP_MS);
    this.timer.unref();
  }

  /**
   * Hold a stream for the principal, or say which cap it met: its account's, or the service's
   * for the kind (both counted and the stream held in one step, so no two callers pass a cap together).
   */
  open(kind: StreamKind, principal: Principal): StreamLease | StreamsFull {
    const serviceMax = this.serviceWide[kind] ?? Infinity;
    let ofAccount = 0;
    let ofService = 0;
    for (const held of this.held) {
      if (held.kind !== kind) continue;
      ofService++;
      if (held.accountId === principal.accountId) ofAccount++;
    }
    if (ofAccount >= this.limits[kind]) return { full: 'the account', limit: this.limits[kind] };
    if (ofService >= serviceMax) return { full: 'the service', limit: serviceMax };
    // One account holds at most half of a service-wide cap (rounded up): a download read slowly
    // but steadily is never cut as stalled, so one account held both of the service's archive
    // slots for as long as it liked, and every other account's downloads were 429 (outside check oc3).
    const share = Math.ceil(serviceMax / 2);
    if (ofAccount >= share) return { full: 'the account', limit: share, shareOf: serviceMax };
    if (kind === 'events') {
      const opens = this.opensOf(principal.accountId);
      if (!opens.take()) return { full: 'the account', limit: 2 * this.limits.events, retryAfterSeconds: Math.max(1, Math.ceil(opens.secondsUntilToken())) };
    }
    const held: Held = { kind, accountId: principal.accountId, tokenId: principal.tokenId, abort: new AbortController() };
    this.held.add(held);
    return { signal: held.abort.signal, release: () => this.held.delete(held) };
  }

  /**
   * End every stream whose token no longer authenticates (asked once per token; a store fault ends
   * none). Passes never overlap: a call during one waits for it, then runs its own (which sees what
   * changed meanwhile).
   */
  async sweep(): Promise<void> {
    while (this.running) await this.running.catch(() => {});
    const pass = this.pass();
    this.running = pass;
    try {
      await pass;
    } finally {
      if (this.running === pass) this.running = undefined;
    }
  }

  private async pass(): Promise<void> {
    const verdicts = new Map<string, boolean>();
    for (const held of [...this.held]) {
      let live = verdicts.get(held.tokenId);
      if (live === undefined) verdicts.set(held.tokenId, (live = await this.isLive(held.tokenId)));
      if (!live) this.end(held);
    }
  }

  private opensOf(accountId: string): ReturnType<typeof tokenBucket> {
    let bucket = this.opens.get(accountId);
    if (!bucket) {
      if (this.opens.size >= MAX_BUCKETS) {
        for (const [id, other] of this.opens) if (other.full()) this.opens.delete(id);
        // All spent at once (10,000 accounts in a second or so): the oldest go.
        for (const id of this.opens.keys()) if (this.opens.size >= MAX_BUCKETS) this.opens.delete(id);
      }
      bucket = tokenBucket({ perSecond: EVENT_STREAM_OPENS.perSecond, burst: 2 * this.limits.events });
      this.opens.set(accountId, bucket);
    }
    return bucket;
  }

  endAll(): void {
    clearInterval(this.timer);
    for (const held of this.held) this.end(held);
  }

  private end(held: Held): void {
    this.held.delete(held);
    held.abort.abort();
  }
}

/** Streams end when their clients leave: a few seconds is a fair wait. */
const RETRY_AFTER_SECONDS = 5;

/** The answer when an account (or the service) already holds the most streams of a kind it may. */
export function tooManyStreams(context: RequestContext, what: string, { full, limit, shareOf, retryAfterSeconds }: StreamsFull) {
  if (retryAfterSeconds !== undefined) {
    return {
      ...fail(context, 'TOO_MANY_REQUESTS', { details: `the account opened ${limit} ${what} in a burst, then at most ${EVENT_STREAM_OPENS.perSecond} a second; retry after ${retryAfterSeconds} s` }),
      headers: { 'Retry-After': String(retryAfterSeconds) } as Record<string, string>,
    };
  }
  const advice = full === 'the account' ? 'close one first' : 'try again shortly';
  const most = shareOf === undefined ? 'the most allowed' : `its share of the ${shareOf} the service streams at once`;
  return {
    ...fail(context, 'TOO_MANY_REQUESTS', { details: `${full} has ${limit} open ${what}, ${most}; ${advice}` }),
    headers: { 'Retry-After': String(RETRY_AFTER_SECONDS) } as Record<string, string>,
  };
}
