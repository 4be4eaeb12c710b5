/**
 * Sign-in under attack: concurrent wrong passwords are refused before their password check
 * (at most one check per email and per address at a time, failures counted when attempts
 * start), and the throttle is keyed on (email, address), so the operator still signs in from
 * another address; one email tried from many addresses is slowed, except at an address it
 * signed in from before.
 */
import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { TEST_ADMIN, useService } from '../support/service.js';

/** POST /admin/api/auth from a chosen loopback address (127.0.0.0/8 is all ours). */
function signIn(url: string, from: string, password: string): Promise<{ status: number; retryAfter: string | undefined }> {
  const { hostname, port } = new URL(url);
  const body = JSON.stringify({ email: TEST_ADMIN.email, password });
  return new Promise((resolve, reject) => {
    const req = request(
      { host: hostname, port, localAddress: from, method: 'POST', path: '/admin/api/auth', agent: false, headers: { 'Content-Type': 'application/json' } },
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
    let slowed: { status: number; retryAfter: string | undefined } | undefined;
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
