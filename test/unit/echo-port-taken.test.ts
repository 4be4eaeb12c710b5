/** The sample echo server on a port another process holds: exit 2 with a clear line, never a silent 0. */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';

describe('the echo server on a taken port', () => {
  it('exits non-zero and names the taken port', async () => {
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const taken = (holder.address() as { port: number }).port;
    try {
      const echo = spawn(process.execPath, ['server/sample/echo-server.mjs'], {
        env: { SESSION_ID: 'taken', SESSION_HOST: '127.0.0.1', PORT_GAME: '0', PORT_QUERY: String(taken) },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      echo.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
      const [code] = await once(echo, 'exit');
      expect(code).toBe(2);
      expect(stderr.trim()).toBe(`echo server for session taken: cannot use tcp 127.0.0.1:${taken}: the port is already in use by another process`);
    } finally {
      holder.close();
    }
  });
});
