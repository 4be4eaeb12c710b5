/**
 * TRUST_PROXY: behind HAProxy, the caller's address is the one HAProxy forwards in
 * X-Forwarded-For; from anyone else the header is ignored, so a caller cannot choose its address.
 */
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../server/config/environment.js';
import { startService, type RunningService } from '../support/service.js';

async function loggedAddress(trustProxy: string[] | undefined, forwardedFor: string): Promise<string> {
  const lines: string[] = [];
  const running: RunningService = await startService(
    { trustProxy },
    { logger: { level: 'info', stream: { write: (line: string) => lines.push(line) } } },
  );
  try {
    await fetch(`${running.url}/healthz`, { headers: { 'X-Forwarded-For': forwardedFor } });
  } finally {
    await running.close();
  }
  const incoming = lines.map((line) => JSON.parse(line)).find((entry) => entry.req?.url === '/healthz');
  return incoming.req.remoteAddress;
}

describe('TRUST_PROXY', () => {

  it('believes X-Forwarded-For from a trusted proxy', async () => {
    expect(await loggedAddress(['127.0.0.1'], '203.0.113.7')).toBe('203.0.113.7');
  });

  it('ignores X-Forwarded-For from anyone else', async () => {
    expect(await loggedAddress(undefined, '203.0.113.7')).toBe('127.0.0.1');
    expect(await loggedAddress(['10.0.0.0/8'], '203.0.113.7')).toBe('127.0.0.1');
  });

  it('refuses a value that is not an address or a CIDR, in one line', () => {
    expect(() => loadConfig({ TRUST_PROXY: '127.0.0.1, haproxy.internal' })).toThrow(ConfigError);
    expect(() => loadConfig({ TRUST_PROXY: 'haproxy.internal' })).toThrow('TRUST_PROXY has haproxy.internal, not addresses or CIDRs');
    expect(loadConfig({ TRUST_PROXY: '127.0.0.1, 10.0.0.0/8' }).trustProxy).toEqual(['127.0.0.1', '10.0.0.0/8']);
  });
});
