/**
 * A TCP proxy on loopback that can be frozen: while frozen it forwards nothing and closes
 * nothing, as a network partition (or a stopped server, whose kernel still takes connections and
 * bytes) looks to both ends: no FIN, no RST, just silence. What arrives meanwhile is held, and
 * thaw() delivers it in order, as a server that resumes reads what waited in its socket.
 */
import { once } from 'node:events';
import { createConnection, createServer, type Socket } from 'node:net';

export interface FreezableProxy {
  port: number;
  freeze(): void;
  /** Forward what was held while frozen, then everything again. */
  thaw(): void;
  close(): Promise<void>;
}

export async function startFreezableProxy(targetPort: number): Promise<FreezableProxy> {
  const sockets = new Set<Socket>();
  let frozen = false;
  const held: (() => void)[] = [];
  const whenThawed = (act: () => void) => (frozen ? held.push(act) : act());
  const server = createServer((client) => {
    const upstream = createConnection({ host: '127.0.0.1', port: targetPort });
    for (const [from, to] of [[client, upstream], [upstream, client]] as const) {
      sockets.add(from);
      from.on('data', (chunk) => whenThawed(() => void (to.destroyed || to.write(chunk))));
      from.on('error', () => whenThawed(() => to.destroy()));
      from.on('close', () => {
        sockets.delete(from);
        whenThawed(() => to.destroy());
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
    thaw: () => {
      frozen = false;
      for (const act of held.splice(0)) act();
    },
    async close() {
      held.length = 0;
      for (const socket of sockets) socket.destroy();
      server.close();
    },
  };
}
