/** Whether the service's address can be listened on, asked before anything is created. */
import { createServer } from 'node:net';

export function portFree(host: string, port: number): Promise<true | NodeJS.ErrnoException> {
  if (port === 0) return Promise.resolve(true);
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', (error: NodeJS.ErrnoException) => resolve(error));
    probe.listen({ host, port, exclusive: true }, () => probe.close(() => resolve(true)));
  });
}
