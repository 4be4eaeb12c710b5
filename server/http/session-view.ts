/** Sessions as the spec shows them (Gameye's wire shape plus our lifecycle fields). */
import type { Session as SessionBody, SessionEvent as SessionEventBody } from '../../generated/types.js';
import type { SessionRecord } from '../domain/ports/sessions.js';
import type { SessionStatus } from '../domain/session-states.js';

export type { SessionBody, SessionEventBody };

/** A state change as SSE `data` and webhook body. */
export function sessionEventBody(event: { id: number | string; status: SessionStatus; previous: SessionStatus | null; at: number; session: SessionRecord }): SessionEventBody {
  return {
    id: String(event.id),
    status: event.status,
    ...(event.previous === null ? {} : { previous: event.previous }),
    at: event.at,
    session: sessionBody(event.session),
  };
}

/**
 * Bodies by record: records are replaced on every change, never mutated (store/live-sessions.ts),
 * so a record's body is built once however often it is read, and goes with its record.
 */
const bodies = new WeakMap<SessionRecord, SessionBody>();

export function sessionBody(session: SessionRecord): SessionBody {
  let body = bodies.get(session);
  if (!body) bodies.set(session, (body = buildSessionBody(session)));
  return body;
}

/** A new body, never kept (sessionBody keeps one per record; tests compare the two). */
export function buildSessionBody(session: SessionRecord): SessionBody {
  return {
    id: session.id,
    image: session.image,
    tag: session.tag,
    location: session.location,
    host: session.host,
    created: session.created,
    started: session.runningSince,
    port: Object.fromEntries(session.ports.map((p) => [`${p.container}/${p.type}`, p.host])),
    ports: session.ports.map((p) => ({ type: p.type, container: p.container, host: p.host, name: p.name })),
    status: session.status,
    labels: session.labels,
    players: { joined: session.players, joinedCount: session.players.length },
    restart: session.restart,
    expires: session.expires,
    ended: session.ended,
    exit_code: session.exitCode,
    end_reason: session.endReason,
  };
}
