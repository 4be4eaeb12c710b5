/**
 * The README's client section names every error class the typed client throws, so an integrator
 * catching them knows the whole set: it listed nine of fourteen (no TooManyRequestsError for the
 * 429 of streams and lists, no ServiceUnavailableError for a busy 503; outside check oc3-newcomer).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as errors from '../../client/errors.js';

describe('the README and the client\'s error classes', () => {
  it('names each exported error class', () => {
    const readme = readFileSync('README.md', 'utf8');
    const classes = Object.entries(errors)
      .filter(([, value]) => typeof value === 'function' && value.prototype instanceof Error)
      .map(([name]) => name);
    expect(classes).toContain('TooManyRequestsError');
    expect(classes.filter((name) => !readme.includes(`\`${name}\``))).toEqual([]);
  });
});
