import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { parseDuration } from '../../server/domain/duration.js';

const accepted: Record<string, number> = {
  '1h30m': 90,
  '45m': 45,
  '2h': 120,
  '30m': 30,
  '1m': 1,
  '10h5m': 605,
  '999999h': 999999 * 60,
};
const refused = ['90', '1x', 'm', 'h', '0m', '0h', '1h1h', '1m1h', '01h', '1h0m', '', ' 1h', '1h ', '1.5h', '-1h', '1H', '1d', '1h30m5s'];

describe('the duration grammar', () => {
  it.each(Object.entries(accepted))('accepts %s as %i minutes', (text, minutes) => {
    expect(parseDuration(text)).toBe(minutes * 60_000);
  });

  it.each(refused)('refuses %j', (text) => {
    expect(parseDuration(text)).toBeUndefined();
  });

  it("agrees with the spec's Duration pattern on every case", () => {
    const spec = parse(readFileSync('generated/openapi.yaml', 'utf8'));
    const pattern = new RegExp(spec.components.schemas.Duration.pattern, 'u');
    for (const text of [...Object.keys(accepted), ...refused]) {
      expect(pattern.test(text), text).toBe(parseDuration(text) !== undefined);
    }
  });
});
