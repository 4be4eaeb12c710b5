/** Vitest setup file: after each test file, write the (operation, status) pairs it exercised. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { afterAll } from 'vitest';
import { exercised } from './contract.js';

afterAll(() => {
  if (exercised.size === 0) return;
  mkdirSync('test-results/coverage', { recursive: true });
  writeFileSync(`test-results/coverage/vitest-${randomUUID()}.json`, JSON.stringify([...exercised]));
});
