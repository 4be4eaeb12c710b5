/**
 * Sign-in under attack: concurrent wrong passwords are refused before their password check
 * (at most one check per email and per address at a time, failures counted when attempts
 * start), and the throttle is keyed on (email, address), so the operator still signs in from
 * another address; one email tried from many addresses is slowed, except at an address it
 * signed in from before. Attempts that find every shared check busy wait their network's turn,
 * so wrong passwords from many networks cannot keep the operator from a check.
 */
import { Agent, request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually.mjs';
import { TEST_ADMIN, useService } from '../support/service.js';

type Answer = { status: number; retryAfter: string | undefined };

/** POST /admin/api/auth from a chosen loopback address (127.0.0.0/8 is all ours, so are its /24s). */
function signIn(
  url: string,
  from: string,
  password: string,
  email = TEST_ADMIN.email,
  { signal, agent = false }: { signal?: AbortSignal; agent?: Agent | false } = {},
): Promise<Answer> {
  const { hostname, port } = new URL(url);
  const body = JSON.stringify({ email, password });
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: hostname,
        port,
        localAddress: from,
        method: 'POST',
        path: '/admin/api/auth',
        agent,
        headers: { 'Content-Type': 'application/json' },
        ...(signal ? { signal } : {}),
      },
      (response) => {
        response.resume();
        response.on('end', () => resolve({ status: response.statusCode!, retryAfter: response.headers['retry-after'] }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * The service's monotonic clock, held still while a test says so: backoff waits run on it, so
 * a burst that the loaded machine takes seconds to deliver is still one instant to the throttle.
 */
function pausableClock() {
  let pausedAt: number | undefined;
  let skipped = 0;
  return {
    read: () => (pausedAt ?? performance.now()) - skipped,
    pause: () => void (pausedAt = performance.now()),
    resume: () => {
      if (pausedAt !== undefined) skipped += performance.now() - pausedAt;
      pausedAt = undefined;
    },
  };
}

describe('sign-in throttle', () => {
  const clock = pausableClock();
  const service = useService({ runtime: 'simulated' }, { monotonic: clock.read });

  it('checks at most a handful of 300 concurrent wrong passwords, and the right one from another address still works', async () => {
    // Still clock: the 5 free failures, then the first backoff (1 s) until the burst is over.
    // On the moving clock a burst the machine spread over more than a second let a sixth
    // check through once that second had passed: right for the throttle, not what this proves.
    clock.pause();
    try {
      const answers = await Promise.all(Array.from({ length: 300 }, (_, i) => signIn(service.running.url, '127.0.0.1', `wrong-${i}`)));
      const checked = answers.filter((a) => a.status === 401).length;
      const refused = answers.filter((a) => a.status === 429);
      expect(checked + refused.length).toBe(300);
      // Each 401 is one password check; all the others were refused before theirs.
      expect(checked).toBeGreaterThanOrEqual(1);
      expect(checked).toBeLessThanOrEqual(5);
      expect(refused.every((a) => Number(a.retryAfter) >= 1)).toBe(true);
    } finally {
      clock.resume();
    }

    // The operator, elsewhere, is not locked out.
    expect((await signIn(service.running.url, '127.0.0.2', TEST_ADMIN.password)).status).toBe(200);
  }, 60_000);

  it('backs off further with each failure past the free ones', async () => {
    const from = '127.0.0.3';
    for (let i = 0; i < 5; i++) expect((await signIn(service.running.url, from, `wrong-${i}`)).status).toBe(401);
    const first = await signIn(service.running.url, from, 'wrong-again');
    expect(first.status).toBe(429);
    expect(Number(first.retryAfter)).toBe(1);
  });

  it('slows one email tried from many addresses, but not its operator at an address they signed in from', async () => {
    // Each address tries once: no address comes near its own limits.
    let slowed: Answer | undefined;
    for (let i = 1; i <= 40 && !slowed; i++) {
      const answer = await signIn(service.running.url, `127.0.1.${i}`, `wrong-${i}`);
      if (answer.status === 429) slowed = answer;
      else expect(answer.status).toBe(401);
    }
    expect(Number(slowed?.retryAfter)).toBeGreaterThanOrEqual(1);
    // A new address waits too, even with the right password; the address the operator signed in
    // from in the first test does not.
    expect((await signIn(service.running.url, '127.0.2.1', TEST_ADMIN.password)).status).toBe(429);
    expect((await signIn(service.running.url, '127.0.0.2', TEST_ADMIN.password)).status).toBe(200);
  });
});

describe('sign-in under a flood of wrong passwords from many networks', () => {
  const service = useService({ runtime: 'simulated' });
  const NETWORKS = 40;
  /** Checks per network at most, below an address's 50 free failures: the flood never backs off. */
  const MAX_CHECKS_PER_NETWORK = 45;

  it('still gives the operator a check, from an address it never signed in from and from one it did', async () => {
    const url = service.running.url;
    // Before the flood the operator signs in once from its usual address.
    const usual = '127.31.0.1';
    expect((await signIn(url, usual, TEST_ADMIN.password)).status).toBe(200);

    // Each of 40 /24s guesses other emails, one attempt at a time over a connection kept open,
    // and after a 429 tries again almost at once: first come, first served, the two shared
    // checks were taken again the moment they freed, and the operator's attempts all found
    // them busy.
    const stop = new AbortController();
    const agents = Array.from({ length: NETWORKS }, (_, n) => new Agent({ keepAlive: true, maxSockets: 1, localAddress: `127.20.${n + 1}.1` }));
    const sentPer = new Array<number>(NETWORKS).fill(0);
    const checkedPer = new Array<number>(NETWORKS).fill(0);
    const floods = Promise.all(
      agents.map(async (agent, n) => {
        // Bounded: at most a few thousand refusals a network, at most its checks.
        for (let i = 0; !stop.signal.aborted && i < 5000 && checkedPer[n]! < MAX_CHECKS_PER_NETWORK; i++) {
          sentPer[n]!++;
          const answer = await signIn(url, `127.20.${n + 1}.1`, `wrong-${i}`, `guess-${n}-${i}@example.com`, { signal: stop.signal, agent }).catch(
            (error: unknown) => {
              if (stop.signal.aborted) return undefined;
              throw error;
            },
          );
          if (answer?.status === 401) checkedPer[n]!++;
          else if (answer?.status === 429) await new Promise((resolve) => setTimeout(resolve, 5));
          else if (answer) throw new Error(`flood from network ${n}: ${answer.status}`);
        }
      }),
    );
    floods.catch(() => {}); // awaited below
    const checked = () => checkedPer.reduce((a, b) => a + b);
    try {
      // The flood is on once every network has sent and checks have turned over a few times.
      await eventually(() => sentPer.every((count) => count > 0) && checked() >= 4, { timeoutMs: 60_000, what: 'every network flooding' });

      // From where the operator signed in before: a check of its own, at once.
      expect((await signIn(url, usual, TEST_ADMIN.password)).status).toBe(200);

      // From a new address (a new laptop, or any address after a restart): it waits its turn
      // behind one attempt per network instead of racing 40 networks for a free check. A client
      // retries after Retry-After: three tries, in case a wait on a loaded machine runs out.
      const fresh = '127.30.0.1';
      const tries: Answer[] = [];
      for (let i = 0; i < 3 && tries.at(-1)?.status !== 200; i++) {
        if (i > 0) await new Promise((resolve) => setTimeout(resolve, 1000 * Number(tries.at(-1)?.retryAfter ?? 1)));
        tries.push(await signIn(url, fresh, TEST_ADMIN.password));
      }
      expect(tries.map((answer) => answer.status)).toContain(200);
      // Nor did any network starve the others: each that waited ahead of the operator had its
      // turn (but the few whose answers may still be on their way). First come, first served,
      // a handful of networks took nearly every check and most had none.
      expect(checkedPer.filter((count) => count === 0).length).toBeLessThanOrEqual(4);
      // The flood lasted throughout: no network ran out of checks.
      expect(checkedPer.every((count) => count < MAX_CHECKS_PER_NETWORK)).toBe(true);
    } finally {
      // Clients that leave take their attempts out of the line.
      stop.abort();
      await floods;
      for (const agent of agents) agent.destroy();
    }
  }, 180_000);
});
