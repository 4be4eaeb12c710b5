/**
 * A TCP proxy on loopback that can be frozen: while frozen it forwards nothing and closes
 * nothing, as a network partition looks to both ends (no FIN, no RST, just silence).
 */
import { once } from 'node:events';
import { createConnection, createServer, type Socket } from 'node:net';

export interface FreezableProxy {
  port: number;
  freeze(): void;
  close(): Promise<void>;
}

export async function startFreezableProxy(targetPort: number): Promise<FreezableProxy> {
  const sockets = new Set<Socket>();
  let frozen = false;
  const server = createServer((client) => {
    const upstream = createConnection({ host: '127.0.0.1', port: targetPort });
    for (const [from, to] of [[client, upstream], [upstream, client]] as const) {
      sockets.add(from);
      from.on('data', (chunk) => {
        if (!frozen) to.write(chunk);
      });
      from.on('error', () => to.destroy());
      from.on('close', () => {
        sockets.delete(from);
        if (!frozen) to.destroy();
      });
    }
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    port: (server.address() as { port: number }).port,
    freeze: () => {
      frozen = true;
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      server.close();
    },
  };
}
