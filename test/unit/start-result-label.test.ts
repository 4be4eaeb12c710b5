/**
 * The starts counter's result label names a 420's reason, never its details: the account session
 * limit's details carry the account's cap, which made a series per distinct cap.
 */
import { expect, it } from 'vitest';
import { startResult } from '../../server/observability/metrics.js';

it('labels a start by its status, and a 420 by its reason alone', () => {
  expect(startResult(201, undefined)).toBe('201');
  expect(startResult(420, 'full')).toBe('420_full');
  expect(startResult(420, 'account_session_limit: the account already has 5 live sessions, its max_sessions; stop one first')).toBe('420_account_session_limit');
  expect(startResult(403, 'the account has no runtime quota left')).toBe('403');
});
