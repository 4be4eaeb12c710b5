/**
 * Where a game server finds its SDK (spec/sdk/) and what it reads there, the same for every
 * runtime that serves it (process: the session's supervisor; Docker: the service, for containers
 * on engines of this machine). The protocol itself is sdk-server.mjs's.
 */
import type { AllocatedSession } from '../../generated/sdk/types.js';
import type { LaunchSpec } from '../domain/ports/runtime.js';

/** The directory a game server sees its SDK socket in (read-only: a sandbox's or a container's bind mount). */
export const SDK_DIR_IN_SESSION = '/run/session-host';
/** The socket's name in that directory. */
export const SDK_SOCKET = 'sdk.sock';
/** SESSION_HOST_SDK of a game server that sees its socket's directory at SDK_DIR_IN_SESSION. */
export const SDK_SOCKET_IN_SESSION = `${SDK_DIR_IN_SESSION}/${SDK_SOCKET}`;

/** What the game server reads from its SDK (spec/sdk/): the session it runs for. */
export function allocationOf(spec: Pick<LaunchSpec, 'publicId' | 'labels' | 'host' | 'ports'>): AllocatedSession {
  return {
    id: spec.publicId,
    labels: spec.labels,
    host: spec.host,
    ports: spec.ports.map(({ name, type, host }) => ({ name, type, host })),
    players: [],
  };
}
