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

/**
 * `netDir` is `/proc/net` or `/proc/<pid>/net`; undefined when no table could be read. Only the
 * tables of `types` are read, and none that the namespace's counts say is empty: reading tcp or
 * tcp6 walks every TCP connection of the host, in any namespace (milliseconds each).
 */
export function boundPorts(netDir, types = ['tcp', 'udp']) {
  const counts = hashedSockets(netDir);
  const ports = { tcp: new Set(), udp: new Set() };
  let read = 0;
  for (const [file, type, listenOnly] of TABLES) {
    if (!types.includes(type) || counts?.[file] === 0) continue;
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
  return read > 0 || counts ? ports : undefined;
}

/**
 * The namespace's counts of hashed sockets (TCP listening or connected, UDP bound; IPv4 and IPv6
 * together); undefined when unreadable. Binding a port raises them, and they cost microseconds
 * to read where the socket tables cost milliseconds.
 */
export function socketCounts(netDir) {
  const counts = hashedSockets(netDir);
  return counts && { tcp: counts.tcp + counts.tcp6, udp: counts.udp + counts.udp6 };
}

/** Hashed sockets per table name (`tcp`, `tcp6`, `udp`, `udp6`), from sockstat and sockstat6. */
function hashedSockets(netDir) {
  try {
    const text = readFileSync(`${netDir}/sockstat`, 'utf8') + readFileSync(`${netDir}/sockstat6`, 'utf8');
    const counts = { tcp: 0, tcp6: 0, udp: 0, udp6: 0 };
    for (const [, table, inuse] of text.matchAll(/^(TCP6?|UDP6?): inuse (\d+)/gm)) counts[table.toLowerCase()] = Number(inuse);
    return counts;
  } catch {
    return undefined;
  }
}
