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

export function sessionBody(session: SessionRecord): SessionBody {
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
