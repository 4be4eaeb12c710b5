/**
 * Who may try a password now. Password checks are expensive on purpose (scrypt takes a thread
 * of the pool for tens of milliseconds), so they are bounded before they start:
 * - at most one check in flight per email and per client address, a few service-wide, and of
 *   those at most one per network (an IPv6 /48, an IPv4 /24: client-address.ts), so that one
 *   network, however many addresses it holds, cannot keep every shared check busy;
 * - failures counted when a check starts (not when it fails, which concurrent attempts would
 *   all pass before), per (email, address) pair, per address and per email;
 * - past a few free failures, each further one doubles the wait, up to a cap.
 * An attempt that finds only busy checks in its way (not a backoff) waits its turn, briefly, in
 * a bounded line: one place per network, served in the order the networks joined, so a network
 * whose attempt was just checked goes behind every other that waits. First come, first served
 * (refusing whoever finds the checks busy) let wrong passwords from a few dozen networks, each
 * retrying the moment it was refused, take every check that freed: the operator never got one.
 * Addresses count as their unit (client-address.ts): IPv4 per address, IPv6 per /64.
 * The pair and the address are keyed so that failures from one address never lock the operator
 * out from another. The email's own count slows an attack spread over many addresses (one try
 * per backoff, capped at a minute, for the whole attack), but never for addresses the email has
 * signed in from before (kept in memory, a few per email): from a known-good address the
 * operator gets in however hot the email is elsewhere, with a check slot of its own that attempts
 * from unknown addresses cannot fill, and ahead of them in the line.
 * Pure bookkeeping: no HTTP, no crypto; time comes from a monotonic clock, waits from a timer.
 */
import { clientNetwork, clientUnit } from './client-address.js';

export const SIGN_IN_LIMIT = {
  /** Failures per (email, address) before backoff starts. */
  freePerPair: 5,
  /** Failures per address (any email) before backoff starts: email spraying. */
  freePerAddress: 50,
  /** Failures per email (any address) before its backoff starts: one email tried from many addresses. */
  freePerEmail: 20,
  /** The per-email wait at most: an attack spread wide gets one try a minute. */
  maxEmailBackoffMs: 60 * 1000,
  /** Addresses (units) remembered per email as known-good, the most recent first. */
  knownGoodPerEmail: 8,
  /** The first wait; it doubles with each further failure. */
  firstBackoffMs: 1000,
  maxBackoffMs: 15 * 60 * 1000,
  /** A key without failures for this long is forgotten. */
  forgetAfterMs: 60 * 60 * 1000,
  /** Password checks at once, service-wide (the thread pool has 4 threads by default). */
  concurrentChecks: 2,
  /** Of those, at once from one network (IPv6 /48, IPv4 /24): below concurrentChecks, so others always find one. */
  checksPerNetwork: 1,
  /**
   * One more check at once, only for an email at an address it signed in from before: attempts
   * from several networks can keep the shared checks busy, never this one.
   */
  knownGoodChecks: 1,
  /**
   * Networks waiting for a check at once (one attempt each); a further one is refused. At tens
   * of milliseconds a check, two at once, the line moves by about 40 a second: a full line
   * drains in some 6 s, well within the wait below even when checks take a few times longer.
   */
  waitingNetworks: 256,
  /** The longest an attempt waits in line; then it is refused (429) like a busy one. */
  maxWaitMs: 30 * 1000,
  /** Tracked keys at most; the least recently failed are forgotten first. */
  maxKeys: 100_000,
};

/** Retry-After when only a concurrent check stands in the way. */
const BUSY_RETRY_MS = 1000;

export type Admission = { ok: true; finish(succeeded: boolean): void } | { ok: false; retryAfterMs: number };

/** Calls `due` after `ms` unless the returned function is called first (setTimeout; tests pass their own). */
export type Timer = (ms: number, due: () => void) => () => void;

const realTimer: Timer = (ms, due) => {
  const timer = setTimeout(due, ms);
  timer.unref();
  return () => clearTimeout(timer);
};

interface Failures {
  count: number;
  last: number;
}

/** One attempt: who it is and the keys it is counted and held under. */
interface Attempt {
  email: string;
  address: string;
  /** Undefined for a known-good attempt, which is not held to its network's share. */
  network: string | undefined;
  trusted: boolean;
  pair: string;
  perAddress: string;
  perEmail: string;
}

interface Waiter {
  attempt: Attempt;
  /** Where it waits: its network's place, or (known-good) its address's. */
  place: string;
  answer(admission: Admission): void;
}

export class SignInThrottle {
  private readonly failures = new Map<string, Failures>();
  private readonly busyEmails = new Set<string>();
  private readonly busyAddresses = new Set<string>();
  /** Checks in flight per network, of those admitted as not known-good. */
  private readonly busyNetworks = new Map<string, number>();
  /** Per email, the address units it signed in from, least recent first. */
  private readonly knownGood = new Map<string, string[]>();
  private checking = 0;
  /**
   * Attempts waiting for a check, in the order they came, by place: one per network (its
   * network's turn), known-good ones one per address and served first. A Map keeps the order.
   */
  private readonly waiting = new Map<string, Waiter>();
  private waitingUnknown = 0;

  constructor(
    private readonly clock: () => number,
    private readonly timer: Timer = realTimer,
  ) {}

  /**
   * Admit one attempt (counted as a failure until finish(true) says otherwise), or say how long
   * to wait. Resolves at once unless the attempt waits in line; `signal` (the client went away)
   * takes it out of the line.
   */
  admit(email: string, clientAddress: string, signal?: AbortSignal): Promise<Admission> {
    const address = clientUnit(clientAddress);
    const trusted = this.knownGood.get(email)?.includes(address) ?? false;
    const attempt: Attempt = {
      email,
      address,
      // A known-good address is not held to its network's share: its neighbours cannot crowd it out.
      network: trusted ? undefined : clientNetwork(clientAddress),
      trusted,
      pair: `pair:${email}\n${address}`,
      perAddress: `address:${address}`,
      perEmail: `email:${email}`,
    };
    const waitMs = this.backoff(attempt);
    if (waitMs > 0) return Promise.resolve({ ok: false, retryAfterMs: waitMs });
    if (this.free(attempt)) return Promise.resolve(this.start(attempt));
    // Only busy checks in the way: wait for a turn, if the line has room for this network.
    const place = trusted ? `known:${address}` : `network:${attempt.network}`;
    const lineFull = !trusted && this.waitingUnknown >= SIGN_IN_LIMIT.waitingNetworks;
    if (this.waiting.has(place) || lineFull || signal?.aborted) return Promise.resolve({ ok: false, retryAfterMs: BUSY_RETRY_MS });
    return new Promise((resolve) => {
      const leave = (admission: Admission) => {
        this.waiting.delete(place);
        if (!trusted) this.waitingUnknown--;
        stopTimer();
        signal?.removeEventListener('abort', gone);
        resolve(admission);
      };
      const gone = () => leave({ ok: false, retryAfterMs: BUSY_RETRY_MS });
      const stopTimer = this.timer(SIGN_IN_LIMIT.maxWaitMs, gone);
      signal?.addEventListener('abort', gone, { once: true });
      this.waiting.set(place, { attempt, place, answer: leave });
      if (!trusted) this.waitingUnknown++;
    });
  }

  /** How long the attempt's backoffs still hold it (0: none). */
  private backoff(attempt: Attempt): number {
    const now = this.clock();
    return Math.max(
      this.blockedFor(attempt.pair, SIGN_IN_LIMIT.freePerPair, now),
      this.blockedFor(attempt.perAddress, SIGN_IN_LIMIT.freePerAddress, now),
      attempt.trusted ? 0 : this.blockedFor(attempt.perEmail, SIGN_IN_LIMIT.freePerEmail, now, SIGN_IN_LIMIT.maxEmailBackoffMs),
    );
  }

  /** Whether a check for the attempt may start now: its email, address and network idle, a check free. */
  private free(attempt: Attempt): boolean {
    const checks = SIGN_IN_LIMIT.concurrentChecks + (attempt.trusted ? SIGN_IN_LIMIT.knownGoodChecks : 0);
    const network = attempt.network;
    const networkFull = network !== undefined && (this.busyNetworks.get(network) ?? 0) >= SIGN_IN_LIMIT.checksPerNetwork;
    return !this.busyEmails.has(attempt.email) && !this.busyAddresses.has(attempt.address) && !networkFull && this.checking < checks;
  }

  private start(attempt: Attempt): Admission {
    const { email, address, network, pair, perAddress, perEmail } = attempt;
    const now = this.clock();
    this.busyEmails.add(email);
    this.busyAddresses.add(address);
    if (network !== undefined) this.busyNetworks.set(network, (this.busyNetworks.get(network) ?? 0) + 1);
    this.checking++;
    this.count(pair, now, +1);
    this.count(perAddress, now, +1);
    this.count(perEmail, now, +1);
    let finished = false;
    return {
      ok: true,
      finish: (succeeded) => {
        if (finished) return;
        finished = true;
        this.busyEmails.delete(email);
        this.busyAddresses.delete(address);
        if (network !== undefined) {
          const left = this.busyNetworks.get(network)! - 1;
          if (left === 0) this.busyNetworks.delete(network);
          else this.busyNetworks.set(network, left);
        }
        this.checking--;
        if (succeeded) {
          this.failures.delete(pair);
          this.count(perAddress, now, -1);
          this.count(perEmail, now, -1);
          this.remember(email, address);
        }
        this.serveWaiting();
      },
    };
  }

  /**
   * A check ended: start what waits and now may, known-good first, then the networks in the
   * order they joined. One whose backoff came meanwhile (its email's count rose while it
   * waited) is refused with that wait, as it would have been on arrival.
   */
  private serveWaiting(): void {
    for (const trustedFirst of [true, false]) {
      for (const waiter of this.waiting.values()) {
        if (waiter.attempt.trusted !== trustedFirst) continue;
        const waitMs = this.backoff(waiter.attempt);
        if (waitMs > 0) waiter.answer({ ok: false, retryAfterMs: waitMs });
        else if (this.free(waiter.attempt)) waiter.answer(this.start(waiter.attempt));
      }
    }
  }

  private count(key: string, now: number, by: number): void {
    const entry = this.failures.get(key) ?? { count: 0, last: now };
    this.failures.delete(key);
    entry.count = Math.max(0, entry.count + by);
    if (by > 0) entry.last = now;
    if (entry.count > 0) this.failures.set(key, entry);
    if (this.failures.size > SIGN_IN_LIMIT.maxKeys) this.failures.delete(this.failures.keys().next().value!);
  }

  /** The address the email just signed in from is known-good for it (the most recent few, bounded overall). */
  private remember(email: string, address: string): void {
    const addresses = (this.knownGood.get(email) ?? []).filter((known) => known !== address);
    addresses.push(address);
    this.knownGood.delete(email);
    this.knownGood.set(email, addresses.slice(-SIGN_IN_LIMIT.knownGoodPerEmail));
    if (this.knownGood.size > SIGN_IN_LIMIT.maxKeys) this.knownGood.delete(this.knownGood.keys().next().value!);
  }

  /** How long until `key` may try again (0: now). */
  private blockedFor(key: string, free: number, now: number, maxBackoffMs = SIGN_IN_LIMIT.maxBackoffMs): number {
    const entry = this.failures.get(key);
    if (!entry) return 0;
    if (now - entry.last > SIGN_IN_LIMIT.forgetAfterMs) {
      this.failures.delete(key);
      return 0;
    }
    if (entry.count < free) return 0;
    const backoff = Math.min(maxBackoffMs, SIGN_IN_LIMIT.firstBackoffMs * 2 ** (entry.count - free));
    return Math.max(0, entry.last + backoff - now);
  }
}
