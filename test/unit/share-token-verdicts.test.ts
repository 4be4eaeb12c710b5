/** A revocation's news to other instances is sent until it goes through, not dropped on the first failure. */
import { describe, expect, it, vi } from 'vitest';
import { LocalCoordination } from '../../server/cluster/local.js';
import { shareTokenVerdicts } from '../../server/cluster/share.js';

describe('sharing token verdicts', () => {
  it('publishes a forget again after the bus refused it, until it is sent', async () => {
    const coordination = new LocalCoordination('instance-a');
    let failures = 2;
    const sent: string[] = [];
    coordination.publish = async (topic) => {
      if (failures-- > 0) throw new Error('pool exhausted');
      sent.push(topic);
    };
    let forget = () => {};
    const errors: unknown[] = [];
    shareTokenVerdicts(coordination, { onForget: (listener) => (forget = listener), forgetVerifiedElsewhere: () => {} }, (error) => errors.push(error));
    forget();
    await vi.waitFor(() => expect(sent).toHaveLength(1), { timeout: 3000 });
    expect(errors).toHaveLength(2);
  });
});
