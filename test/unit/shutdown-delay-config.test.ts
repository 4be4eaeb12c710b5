/**
 * SHUTDOWN_DELAY_SECONDS: instances on PostgreSQL run behind a proxy and leave its rotation
 * before closing (5 s by default); one alone on SQLite has no proxy to wait for and stops at once.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_CLUSTER_SHUTDOWN_DELAY_SECONDS, loadConfig } from '../../server/config/environment.js';

describe('the shutdown delay setting', () => {
  it('is 5 s with DATABASE_URL and none without, unless set', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://u:p@127.0.0.1:5432/d' }).shutdownDelayMs).toBe(DEFAULT_CLUSTER_SHUTDOWN_DELAY_SECONDS * 1000);
    expect(loadConfig({}).shutdownDelayMs).toBe(0);
    expect(loadConfig({ SHUTDOWN_DELAY_SECONDS: '0.5' }).shutdownDelayMs).toBe(500);
    expect(loadConfig({ DATABASE_URL: 'postgres://u:p@127.0.0.1:5432/d', SHUTDOWN_DELAY_SECONDS: '0' }).shutdownDelayMs).toBe(0);
  });

  it('refuses a negative or huge delay', () => {
    expect(() => loadConfig({ SHUTDOWN_DELAY_SECONDS: '-1' })).toThrow(/SHUTDOWN_DELAY_SECONDS/);
    expect(() => loadConfig({ SHUTDOWN_DELAY_SECONDS: '301' })).toThrow(/SHUTDOWN_DELAY_SECONDS/);
  });
});
