// Ports bound in a network namespace, read from its socket tables (<netDir>/tcp, tcp6, udp,
// udp6): TCP in LISTEN state and bound UDP sockets. Plain JavaScript so the supervisor, which
// runs without a TypeScript loader, and the runtimes share one reading of the format.
import { readFileSync } from 'node:fs';

const TABLES = [
  ['tcp', 'tcp', true],
  ['tcp6', 'tcp', true],
  ['udp', 'udp', false],
  ['udp6', 'udp', false],
];
const LISTEN = '0A';

/** `netDir` is `/proc/net` or `/proc/<pid>/net`; undefined when no table could be read. */
export function boundPorts(netDir) {
  const ports = { tcp: new Set(), udp: new Set() };
  let read = 0;
  for (const [file, type, listenOnly] of TABLES) {
    let text;
    try {
      text = readFileSync(`${netDir}/${file}`, 'utf8');
      read++;
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      if (fields.length < 4) continue;
      if (listenOnly && fields[3] !== LISTEN) continue;
      ports[type].add(parseInt(fields[1].split(':').pop(), 16));
    }
  }
  return read > 0 ? ports : undefined;
}
