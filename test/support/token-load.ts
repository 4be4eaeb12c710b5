/** Load for fault and backup tests: clients minting tokens as fast as the service answers, until stopped. */
import type { caller, CallResult } from './http.js';

export function mintTokens(
  call: ReturnType<typeof caller>,
  options: { clients: number; prefix: string; onAnswer?: (answer: CallResult) => unknown },
): { acknowledged: string[]; stop(): Promise<void> } {
  /** The names of the tokens the service answered 201 for, in the order it did. */
  const acknowledged: string[] = [];
  let running = true;
  let n = 0;
  const client = async () => {
    while (running) {
      const name = `${options.prefix}-${n++}`;
      const created = await call('POST', '/token', { body: { name, scopes: ['session:read'] } });
      if (created.status === 201) acknowledged.push(name);
      await options.onAnswer?.(created);
    }
  };
  const clients = Array.from({ length: options.clients }, client);
  return {
    acknowledged,
    async stop() {
      running = false;
      await Promise.all(clients);
    },
  };
}
