import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../support/http.js';
import { useService } from '../support/service.js';

describe('start-rate limit per account and location', () => {
  let next = 0;
  const start = (location = 'local-a') => service.call('POST', '/session', { body: { id: `r${++next}`, location, image: 'echo' } });
  const service = useService({ runtime: 'simulated', startRate: { perSecond: 1, burst: 2, burstWindowSeconds: 30 } });

  it('answers a burst past the limit with 420 rate_limited and Retry-After, then lets a start through after the wait', async () => {
    const burst = [];
    for (let i = 0; i < 6; i++) burst.push(await start());
    expect(burst.map((r) => r.status)).toEqual([201, 201, 201, 420, 420, 420]);
    const limited = burst[3]!;
    expectError(limited, 420, 'CAPACITY_UNAVAILABLE', '/session');
    expect(limited.json.details).toBe('rate_limited');
    const wait = Number(limited.headers.get('retry-after'));
    expect(wait).toBeGreaterThanOrEqual(1);

    // Another location has its own bucket.
    expect((await start('local-b')).status).toBe(201);

    await new Promise((resolve) => setTimeout(resolve, wait * 1000));
    expect((await start()).status).toBe(201);
  });
});
