/** Records the store tests write: an account and a session with every field set. */
import type { PortsInUse, SessionRecord } from '../../server/domain/ports/sessions.js';
import { justPlaced } from '../../server/domain/session-states.js';

export const account = (id: string, extra: object = {}) => ({
  id,
  name: `Studio ${id}`,
  email: `${id}@example.com`,
  quotaMinutes: 100,
  usedSeconds: 0,
  operator: false,
  disabled: false,
  created: 1000,
  ...extra,
});

export function session(id: string, extra: Partial<SessionRecord> = {}): SessionRecord {
  return {
    id,
    accountId: 'acc',
    key: `key-${id}`,
    image: 'echo',
    tag: '1',
    location: 'local',
    nodeId: 'n1',
    host: '127.0.0.1',
    created: 1000,
    ports: [{ name: 'game', type: 'udp', container: 7777, host: 20000 }],
    labels: { mode: 'ctf', map: 'dust' },
    args: ['--fast'],
    restart: false,
    expires: null,
    ...justPlaced(),
    ...extra,
  };
}

/** Which of the host ports 19990-20009 (the ports these records use, and some around) a store says are in use. */
export function portsHeld(ports: PortsInUse): number[] {
  return Array.from({ length: 20 }, (_, i) => 19990 + i).filter((port) => ports.has(port));
}
