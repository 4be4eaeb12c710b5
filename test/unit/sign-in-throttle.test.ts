/**
 * The sign-in throttle's keys: IPv6 clients are limited per /64 (what one subscriber holds) and
 * their networks per /48 (IPv4: per address and per /24) for the shared password checks,
 * IPv4 per address, IPv4-mapped IPv6 as the IPv4 address it is; and one email tried from many
 * addresses is slowed, except from an address it signed in from before.
 */
import { describe, expect, it } from 'vitest';
import { clientNetwork, clientUnit } from '../../server/domain/client-address.js';
import { SIGN_IN_LIMIT, SignInThrottle, type Admission } from '../../server/domain/sign-in-throttle.js';

/** A throttle on a clock that only moves when told, with waits in line that end only when told. */
function throttle() {
  let now = 0;
  const timers = new Set<() => void>();
  const t = new SignInThrottle(
    () => now,
    (_ms, due) => {
      timers.add(due);
      return () => timers.delete(due);
    },
  );
  /** One attempt, alone: 'wait' when refused, else its outcome as given. */
  const attempt = async (email: string, address: string, succeeds = false) => {
    const admission = await t.admit(email, address);
    if (!admission.ok) return 'wait';
    admission.finish(succeeds);
    return succeeds ? 'in' : 'wrong';
  };
  /** Every wait in line runs out now. */
  const waitsRunOut = () => {
    for (const due of [...timers]) due();
  };
  return { t, attempt, advance: (ms: number) => void (now += ms), waitsRunOut, waiting: () => timers.size };
}

/** An admission as it stands: its promise, and what it resolved to once it has. */
function pending(admission: Promise<Admission>) {
  const state: { settled?: Admission; promise: Promise<Admission> } = { promise: admission };
  void admission.then((settled) => (state.settled = settled));
  return state;
}

/** Let resolved admissions' callbacks run. */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

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
  it('counts every address of a /64 as one', async () => {
    const { attempt } = throttle();
    // Spraying emails from ever new addresses of one /64 hits the per-address limit all the same.
    for (let i = 0; i < SIGN_IN_LIMIT.freePerAddress; i++) expect(await attempt(`user${i}@example.com`, `2001:db8:1:2::${i.toString(16)}`)).toBe('wrong');
    expect(await attempt('another@example.com', '2001:db8:1:2:ffff::1')).toBe('wait');
    // The neighbouring /64 is someone else.
    expect(await attempt('another@example.com', '2001:db8:1:3::1')).toBe('wrong');
  });

  it('counts an IPv4-mapped address as the IPv4 address', async () => {
    const { attempt } = throttle();
    for (let i = 0; i < SIGN_IN_LIMIT.freePerPair; i++) expect(await attempt('op@example.com', '::ffff:192.0.2.7')).toBe('wrong');
    expect(await attempt('op@example.com', '192.0.2.7')).toBe('wait');
    expect(await attempt('op@example.com', '192.0.2.8')).toBe('wrong');
  });

  it('slows one email tried from many addresses, but not from an address it signed in from', async () => {
    const { attempt, advance } = throttle();
    expect(await attempt('op@example.com', '198.51.100.1', true)).toBe('in');
    // A distributed attack: each address stays under its own limits.
    for (let i = 0; i < SIGN_IN_LIMIT.freePerEmail; i++) expect(await attempt('op@example.com', `203.0.113.${i}`)).toBe('wrong');
    expect(await attempt('op@example.com', '203.0.113.200')).toBe('wait');
    expect(await attempt('op@example.com', '2001:db8:9::1')).toBe('wait');
    // The operator, from where they signed in before, gets in at once.
    expect(await attempt('op@example.com', '198.51.100.1', true)).toBe('in');
    // The attack gets one try per backoff, the backoff capped at a minute.
    for (let i = 0; i < 20; i++) {
      advance(SIGN_IN_LIMIT.maxEmailBackoffMs);
      expect(await attempt('op@example.com', `203.0.113.${100 + i}`)).toBe('wrong');
      expect(await attempt('op@example.com', `203.0.113.${150 + i}`)).toBe('wait');
    }
    expect(await attempt('op@example.com', '198.51.100.1', true)).toBe('in');
    // Other emails are not slowed by it.
    expect(await attempt('someone@example.com', '203.0.113.201')).toBe('wrong');
  });

  it('keeps a password check free for an email at an address it signed in from, however many are in flight', async () => {
    const { t } = throttle();
    const first = await t.admit('op@example.com', '198.51.100.1');
    expect(first.ok).toBe(true);
    if (first.ok) first.finish(true);
    // Attempts from several networks with other emails fill the shared checks (their hashes in flight).
    const inFlight = await Promise.all(Array.from({ length: SIGN_IN_LIMIT.concurrentChecks }, (_, i) => t.admit(`x${i}@example.com`, `2001:db8:${i}::1`)));
    expect(inFlight.every((admission) => admission.ok)).toBe(true);
    // Others wait in line for them.
    const others = [pending(t.admit('y@example.com', '2001:db8:ff::1')), pending(t.admit('op@example.com', '203.0.113.9'))];
    await settle();
    expect(others.map((other) => other.settled)).toEqual([undefined, undefined]);
    // The operator, from where they signed in before, still gets a check at once.
    expect((await t.admit('op@example.com', '198.51.100.1')).ok).toBe(true);
  });

  it('lets one network hold only its share of the shared checks, however many addresses it uses', async () => {
    expect(SIGN_IN_LIMIT.checksPerNetwork).toBeLessThan(SIGN_IN_LIMIT.concurrentChecks);
    for (const [first, neighbour, elsewhere] of [
      ['2001:db8:1:1::1', '2001:db8:1:ffff::1', '2001:db8:2::1'],
      ['192.0.2.1', '192.0.2.200', '198.51.100.1'],
    ] as const) {
      const { t } = throttle();
      // The network's share is one check: its first attempt holds it.
      const held = await t.admit('a@example.com', first);
      expect(held.ok).toBe(true);
      // Another /64 of the same /48, another address of the same /24: waits for it.
      const waiting = pending(t.admit('b@example.com', neighbour));
      // Another network still finds a shared check.
      const other = await t.admit('c@example.com', elsewhere);
      expect(other.ok).toBe(true);
      await settle();
      expect(waiting.settled).toBeUndefined();
      // Once the network's check ends, its waiting attempt gets one.
      if (held.ok) held.finish(false);
      expect((await waiting.promise).ok).toBe(true);
    }
  });

  it('serves attempts that find every check busy network by network, in the order the networks joined the line', async () => {
    const { t } = throttle();
    const checks: { who: string; admission: Admission }[] = [];
    /** An attempt that, once admitted, holds its check until the test ends it. */
    const attempt = (who: string, email: string, address: string) =>
      t.admit(email, address).then((admission) => {
        if (admission.ok) checks.push({ who, admission });
        return admission;
      });
    // Two networks hold both shared checks; 40 more each wait with one attempt.
    await attempt('held-0', 'x0@example.com', '198.51.100.1');
    await attempt('held-1', 'x1@example.com', '198.51.101.1');
    const flood = (n: number, i: number) => attempt(`net-${n}`, `guess-${n}-${i}@example.com`, `10.0.${n}.${1 + (i % 200)}`);
    const line = Array.from({ length: 40 }, (_, n) => flood(n, 0));
    // A network has one place: its further attempts are refused at once, not queued.
    expect(await flood(0, 1)).toEqual({ ok: false, retryAfterMs: 1000 });
    // The operator, from an address it never signed in from, joins behind them.
    const operator = pending(attempt('operator', 'op@example.com', '203.0.113.9'));
    // Each check that ends serves the next network in line; a served network tries again at once
    // (behind the operator now), and its check fails.
    let served = 0;
    for (let i = 1; !operator.settled && served < 100; i++) {
      const next = checks.shift()!;
      next.admission.ok && next.admission.finish(false);
      await settle();
      const started = checks.at(-1)!;
      if (started.who !== 'operator') void flood(Number(started.who.slice(4)), i);
      served++;
    }
    expect(operator.settled?.ok).toBe(true);
    // The two held checks ended, then each of the 40 networks ahead had its turn, no network twice.
    expect(served).toBe(41);
    await Promise.all(line);
  });

  it('bounds the line: a number of networks, each for a while; a client that leaves gives its place up', async () => {
    const { t, waitsRunOut, waiting } = throttle();
    await t.admit('x0@example.com', '198.51.100.1');
    await t.admit('x1@example.com', '198.51.101.1');
    const line = Array.from({ length: SIGN_IN_LIMIT.waitingNetworks }, (_, n) => t.admit(`n${n}@example.com`, `10.${n >> 8}.${n & 255}.1`));
    expect(waiting()).toBe(SIGN_IN_LIMIT.waitingNetworks);
    // The line is full: another network is refused at once.
    expect(await t.admit('late@example.com', '203.0.113.9')).toEqual({ ok: false, retryAfterMs: 1000 });
    // The wait runs out for every one of them: refused, as when the checks are busy.
    waitsRunOut();
    for (const entry of line) expect(await entry).toEqual({ ok: false, retryAfterMs: 1000 });
    expect(waiting()).toBe(0);
    // One whose client leaves is out of the line at once.
    const leaving = new AbortController();
    const leaves = t.admit('late@example.com', '203.0.113.9', leaving.signal);
    expect(waiting()).toBe(1);
    leaving.abort();
    expect(await leaves).toEqual({ ok: false, retryAfterMs: 1000 });
    expect(waiting()).toBe(0);
  });

  it('serves an email at an address it signed in from ahead of the line, once its email is free', async () => {
    const { t } = throttle();
    const signedIn = await t.admit('op@example.com', '198.51.100.1');
    if (signedIn.ok) signedIn.finish(true);
    // An attacker's check of the operator's email and another one hold both shared checks;
    // ten networks wait.
    const attackers = [await t.admit('op@example.com', '192.0.2.1'), await t.admit('x@example.com', '192.0.3.1')];
    const line = Array.from({ length: 10 }, (_, n) => pending(t.admit(`n${n}@example.com`, `10.0.${n}.1`)));
    // The operator at its known address finds its email busy: it waits, at the front.
    const operator = pending(t.admit('op@example.com', '198.51.100.1'));
    await settle();
    expect(operator.settled).toBeUndefined();
    const [onEmail] = attackers;
    if (onEmail?.ok) onEmail.finish(false);
    await settle();
    expect(operator.settled?.ok).toBe(true);
    // It took the check that freed, before the ten networks that waited longer.
    expect(line.filter((entry) => entry.settled?.ok).length).toBe(0);
  });

  it("refuses an attempt in line whose backoff came while it waited, with that backoff's wait", async () => {
    const { t, attempt } = throttle();
    for (let i = 0; i < SIGN_IN_LIMIT.freePerEmail - 2; i++) expect(await attempt('op@example.com', `203.0.113.${i}`)).toBe('wrong');
    // The 19th failure's check is in flight; two more attempts at the email wait for it.
    const nineteenth = await t.admit('op@example.com', '192.0.2.1');
    const twentieth = pending(t.admit('op@example.com', '198.51.100.1'));
    const twentyFirst = pending(t.admit('op@example.com', '2001:db8::1'));
    if (nineteenth.ok) nineteenth.finish(false);
    expect((await twentieth.promise).ok).toBe(true);
    // Twenty failures counted: the email's backoff holds the next, as it would have on arrival.
    expect(await twentyFirst.promise).toEqual({ ok: false, retryAfterMs: SIGN_IN_LIMIT.firstBackoffMs });
  });

  it('never runs more checks at once than allowed, whatever comes, goes, waits and leaves', async () => {
    // A seeded random mix of known-good and unknown attempts from a few networks and emails.
    let seed = 42;
    const random = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    const { t, advance, waitsRunOut } = throttle();
    for (const address of ['198.51.100.1', '198.51.100.2']) {
      const known = await t.admit('op@example.com', address);
      if (known.ok) known.finish(true);
    }
    const running: { email: string; address: string; network: string; trusted: boolean; admission: Admission & { ok: true } }[] = [];
    const leavers: AbortController[] = [];
    let checked = 0;
    for (let step = 0; step < 3000; step++) {
      const action = random(10);
      if (action < 5) {
        const trusted = random(8) === 0;
        const email = trusted ? 'op@example.com' : `e${random(6)}@example.com`;
        const address = trusted ? `198.51.100.${1 + random(2)}` : `10.0.${random(5)}.${random(4)}`;
        const leave = new AbortController();
        leavers.push(leave);
        void t.admit(email, address, leave.signal).then((admission) => {
          if (!admission.ok) return;
          checked++;
          running.push({ email, address, network: trusted ? address : clientNetwork(address), trusted, admission });
        });
      } else if (action < 8 && running.length > 0) {
        running.splice(random(running.length), 1)[0]!.admission.finish(random(20) === 0);
      } else if (action === 8 && leavers.length > 0) {
        leavers.splice(random(leavers.length), 1)[0]!.abort();
      } else if (random(50) === 0) {
        waitsRunOut();
      } else advance(random(2000));
      await settle();
      const shared = running.filter((check) => !check.trusted);
      expect(shared.length).toBeLessThanOrEqual(SIGN_IN_LIMIT.concurrentChecks);
      expect(running.length).toBeLessThanOrEqual(SIGN_IN_LIMIT.concurrentChecks + SIGN_IN_LIMIT.knownGoodChecks);
      for (const key of ['email', 'address'] as const) expect(new Set(running.map((check) => check[key])).size).toBe(running.length);
      expect(new Set(shared.map((check) => check.network)).size).toBe(shared.length);
    }
    expect(checked).toBeGreaterThan(50);
  });
});
