/**
 * Who may try a password now. Password checks are expensive on purpose (scrypt takes a thread
 * of the pool for tens of milliseconds), so they are bounded before they start:
 * - at most one check in flight per email and per client address, a few service-wide, and of
 *   those at most one per network (an IPv6 /48, an IPv4 /24: client-address.ts), so that one
 *   network, however many addresses it holds, cannot keep every shared check busy;
 * - failures counted when an attempt starts (not when it fails, which concurrent attempts
 *   would all pass before), per (email, address) pair, per address and per email;
 * - past a few free failures, each further one doubles the wait, up to a cap.
 * Addresses count as their unit (client-address.ts): IPv4 per address, IPv6 per /64.
 * The pair and the address are keyed so that failures from one address never lock the operator
 * out from another. The email's own count slows an attack spread over many addresses (one try
 * per backoff, capped at a minute, for the whole attack), but never for addresses the email has
 * signed in from before (kept in memory, a few per email): from a known-good address the
 * operator gets in however hot the email is elsewhere, with a check slot of its own that attempts
 * from unknown addresses cannot fill.
 * Pure bookkeeping: no HTTP, no crypto; time comes from a monotonic clock.
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
  /** Tracked keys at most; the least recently failed are forgotten first. */
  maxKeys: 100_000,
};

/** Retry-After when only a concurrent check stands in the way. */
const BUSY_RETRY_MS = 1000;

export type Admission = { ok: true; finish(succeeded: boolean): void } | { ok: false; retryAfterMs: number };

interface Failures {
  count: number;
  last: number;
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

  constructor(private readonly clock: () => number) {}

  /** Admit one attempt (counted as a failure until finish(true) says otherwise), or say how long to wait. */
  admit(email: string, clientAddress: string): Admission {
    const now = this.clock();
    const address = clientUnit(clientAddress);
    const pair = `pair:${email}\n${address}`;
    const perAddress = `address:${address}`;
    const perEmail = `email:${email}`;
    const trusted = this.knownGood.get(email)?.includes(address) ?? false;
    const waitMs = Math.max(
      this.blockedFor(pair, SIGN_IN_LIMIT.freePerPair, now),
      this.blockedFor(perAddress, SIGN_IN_LIMIT.freePerAddress, now),
      trusted ? 0 : this.blockedFor(perEmail, SIGN_IN_LIMIT.freePerEmail, now, SIGN_IN_LIMIT.maxEmailBackoffMs),
    );
    if (waitMs > 0) return { ok: false, retryAfterMs: waitMs };
    const checks = SIGN_IN_LIMIT.concurrentChecks + (trusted ? SIGN_IN_LIMIT.knownGoodChecks : 0);
    // A known-good address is not held to its network's share: its neighbours cannot crowd it out.
    const network = trusted ? undefined : clientNetwork(clientAddress);
    const networkFull = network !== undefined && (this.busyNetworks.get(network) ?? 0) >= SIGN_IN_LIMIT.checksPerNetwork;
    if (this.busyEmails.has(email) || this.busyAddresses.has(address) || networkFull || this.checking >= checks) {
      return { ok: false, retryAfterMs: BUSY_RETRY_MS };
    }
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
      },
    };
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
