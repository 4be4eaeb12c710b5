/**
 * The sign-in throttle's keys: IPv6 clients are limited per /64 (what one subscriber holds) and
 * their networks per /48 (IPv4: per address and per /24) for the shared password checks,
 * IPv4 per address, IPv4-mapped IPv6 as the IPv4 address it is; and one email tried from many
 * addresses is slowed, except from an address it signed in from before.
 */
import { describe, expect, it } from 'vitest';
import { clientNetwork, clientUnit } from '../../server/domain/client-address.js';
import { SIGN_IN_LIMIT, SignInThrottle } from '../../server/domain/sign-in-throttle.js';

/** A throttle on a clock that only moves when told. */
function throttle() {
  let now = 0;
  const t = new SignInThrottle(() => now);
  /** One attempt: 'wait' when refused, else its outcome as given. */
  const attempt = (email: string, address: string, succeeds = false) => {
    const admission = t.admit(email, address);
    if (!admission.ok) return 'wait';
    admission.finish(succeeds);
    return succeeds ? 'in' : 'wrong';
  };
  return { attempt, advance: (ms: number) => void (now += ms) };
}

describe('the units a client address is limited as', () => {
  const units = (address: string) => [clientUnit(address), clientNetwork(address)];

  it.each([
    ['2001:db8:1:2::1', '2001:db8:1:2::/64', '2001:db8:1::/48'],
    ['2001:0db8:0001:0002:ffff:ffff:ffff:ffff', '2001:db8:1:2::/64', '2001:db8:1::/48'],
    ['2001:db8:1:3::1', '2001:db8:1:3::/64', '2001:db8:1::/48'],
    ['::1', '0:0:0:0::/64', '0:0:0::/48'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64', 'fe80:0:0::/48'],
    ['64:ff9b::192.0.2.1', '64:ff9b:0:0::/64', '64:ff9b:0::/48'],
  ])('IPv6 %s: its /64 %s and its /48 %s, however it is written', (address, unit, network) => {
    expect(units(address)).toEqual([unit, network]);
  });

  it('is the address and its /24 for IPv4, also when it comes IPv4-mapped; anything else is its own', () => {
    for (const address of ['192.0.2.1', '::ffff:192.0.2.1', '::ffff:c000:201']) expect(units(address)).toEqual(['192.0.2.1', '192.0.2.0/24']);
    expect(units('192.0.2.200')).toEqual(['192.0.2.200', '192.0.2.0/24']);
    expect(units('not-an-ip')).toEqual(['not-an-ip', 'not-an-ip']);
  });
});

describe('the sign-in throttle', () => {
  it('counts every address of a /64 as one', () => {
    const { attempt } = throttle();
    // Spraying emails from ever new addresses of one /64 hits the per-address limit all the same.
    for (let i = 0; i < SIGN_IN_LIMIT.freePerAddress; i++) expect(attempt(`user${i}@example.com`, `2001:db8:1:2::${i.toString(16)}`)).toBe('wrong');
    expect(attempt('another@example.com', '2001:db8:1:2:ffff::1')).toBe('wait');
    // The neighbouring /64 is someone else.
    expect(attempt('another@example.com', '2001:db8:1:3::1')).toBe('wrong');
  });

  it('counts an IPv4-mapped address as the IPv4 address', () => {
    const { attempt } = throttle();
    for (let i = 0; i < SIGN_IN_LIMIT.freePerPair; i++) expect(attempt('op@example.com', '::ffff:192.0.2.7')).toBe('wrong');
    expect(attempt('op@example.com', '192.0.2.7')).toBe('wait');
    expect(attempt('op@example.com', '192.0.2.8')).toBe('wrong');
  });

  it('slows one email tried from many addresses, but not from an address it signed in from', () => {
    const { attempt, advance } = throttle();
    expect(attempt('op@example.com', '198.51.100.1', true)).toBe('in');
    // A distributed attack: each address stays under its own limits.
    for (let i = 0; i < SIGN_IN_LIMIT.freePerEmail; i++) expect(attempt('op@example.com', `203.0.113.${i}`)).toBe('wrong');
    expect(attempt('op@example.com', '203.0.113.200')).toBe('wait');
    expect(attempt('op@example.com', '2001:db8:9::1')).toBe('wait');
    // The operator, from where they signed in before, gets in at once.
    expect(attempt('op@example.com', '198.51.100.1', true)).toBe('in');
    // The attack gets one try per backoff, the backoff capped at a minute.
    for (let i = 0; i < 20; i++) {
      advance(SIGN_IN_LIMIT.maxEmailBackoffMs);
      expect(attempt('op@example.com', `203.0.113.${100 + i}`)).toBe('wrong');
      expect(attempt('op@example.com', `203.0.113.${150 + i}`)).toBe('wait');
    }
    expect(attempt('op@example.com', '198.51.100.1', true)).toBe('in');
    // Other emails are not slowed by it.
    expect(attempt('someone@example.com', '203.0.113.201')).toBe('wrong');
  });

  it('keeps a password check free for an email at an address it signed in from, however many are in flight', () => {
    const t = new SignInThrottle(() => 0);
    const first = t.admit('op@example.com', '198.51.100.1');
    expect(first.ok).toBe(true);
    if (first.ok) first.finish(true);
    // Attempts from several networks with other emails fill the shared checks (their hashes in flight).
    const inFlight = Array.from({ length: SIGN_IN_LIMIT.concurrentChecks }, (_, i) => t.admit(`x${i}@example.com`, `2001:db8:${i}::1`));
    expect(inFlight.every((admission) => admission.ok)).toBe(true);
    expect(t.admit('y@example.com', '2001:db8:ff::1').ok).toBe(false);
    expect(t.admit('op@example.com', '203.0.113.9').ok).toBe(false);
    // The operator, from where they signed in before, still gets a check.
    expect(t.admit('op@example.com', '198.51.100.1').ok).toBe(true);
  });

  it('lets one network hold only its share of the shared checks, however many addresses it uses', () => {
    expect(SIGN_IN_LIMIT.checksPerNetwork).toBeLessThan(SIGN_IN_LIMIT.concurrentChecks);
    for (const [first, neighbour, elsewhere] of [
      ['2001:db8:1:1::1', '2001:db8:1:ffff::1', '2001:db8:2::1'],
      ['192.0.2.1', '192.0.2.200', '198.51.100.1'],
    ] as const) {
      const t = new SignInThrottle(() => 0);
      // The network's share is one check: its first attempt holds it.
      const held = t.admit('a@example.com', first);
      expect(held.ok).toBe(true);
      // Another /64 of the same /48, another address of the same /24: refused for now.
      expect(t.admit('b@example.com', neighbour)).toEqual({ ok: false, retryAfterMs: expect.any(Number) });
      // Another network still finds a shared check.
      const other = t.admit('c@example.com', elsewhere);
      expect(other.ok).toBe(true);
      // Once the network's check ends, its next attempt gets one again.
      if (held.ok) held.finish(false);
      if (other.ok) other.finish(false);
      expect(t.admit('b@example.com', neighbour).ok).toBe(true);
    }
  });
});
