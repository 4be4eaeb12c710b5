/**
 * Labels and args count against a per-account storage budget: maximum-size sessions are
 * refused (403 QUOTA_EXCEEDED, details naming the budget) once the account's retained sessions
 * hold that much; another account is unaffected.
 */
import { describe, expect, it } from 'vitest';
import { expectError } from '../support/http.js';
import { useService } from '../support/service.js';

describe('storage budget', () => {
  // 1 MiB: about eight maximum-size sessions.
  const service = useService({ runtime: 'simulated', storageBudgetMiB: 1 });
  const big = (id: string) => ({
    id,
    location: 'local-a',
    image: 'echo',
    labels: Object.fromEntries(Array.from({ length: 64 }, (_, i) => [`label-${i}`, 'l'.repeat(1024)])),
    args: Array.from({ length: 64 }, () => 'a'.repeat(1024)),
  });

  it('refuses sessions past the budget, counting ended ones still retained', async () => {
    let started = 0;
    let refused: Awaited<ReturnType<typeof service.call>> | undefined;
    for (let i = 0; i < 20 && !refused; i++) {
      const result = await service.call('POST', '/session', { body: big(`big-${i}`) });
      if (result.status === 201) {
        started++;
        await service.call('DELETE', `/session/big-${i}`);
      } else refused = result;
    }
    expect(started).toBeGreaterThanOrEqual(6);
    expect(started).toBeLessThanOrEqual(8);
    expectError(refused!, 403, 'QUOTA_EXCEEDED', '/session');
    expect(refused!.json.details).toMatch(/storage budget \(1048576 bytes\)/);
    // Small sessions still fit; another account has its own budget.
    expect((await service.call('POST', '/session', { body: { id: 'small', location: 'local-a', image: 'echo' } })).status).toBe(201);
    const other = await service.running.service.onboard({ name: 'Other', quotaMinutes: 10, operator: false });
    expect((await service.call('POST', '/session', { token: other.token, body: big('other-big') })).status).toBe(201);
  });
});
