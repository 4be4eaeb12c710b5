/**
 * The spec's error examples (what `npm run mock` answers) carry the `message` the service sends
 * for their code: the mock's 420 said "No capacity in location" and its storage-budget 403
 * "Runtime quota exhausted", which the service never says (outside check oc3-newcomer).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { errorBody, STORAGE_BUDGET_MESSAGE, type ErrorCode } from '../../server/http/errors.js';

const spec = parse(readFileSync('generated/openapi.yaml', 'utf8')) as { components: { examples: Record<string, { value?: unknown }> } };

/** What the service may say as `message` for a code (the storage budget's 403 has its own). */
function messagesFor(code: ErrorCode): string[] {
  const message = errorBody(code, { requestId: 'x', path: '/' }).message;
  return code === 'QUOTA_EXCEEDED' ? [message, STORAGE_BUDGET_MESSAGE] : [message];
}

describe('error examples', () => {
  const examples = Object.entries(spec.components.examples).filter(
    (entry): entry is [string, { value: { code: ErrorCode; message: string } }] =>
      typeof entry[1].value === 'object' && entry[1].value !== null && 'code' in entry[1].value && 'statusCode' in entry[1].value,
  );

  it('are found', () => expect(examples.length).toBeGreaterThan(10));

  it.each(examples.map(([name, example]) => [name, example.value] as const))('%s says what the service says', (name, value) => {
    expect(messagesFor(value.code)).toContain(value.message);
    if (name === 'StorageBudgetExceededError') expect(value.message).toBe(STORAGE_BUDGET_MESSAGE);
  });
});
