import type { PanelSession } from '../domain/operators.js';
import type { Principal } from '../domain/tokens.js';
import type { ErrorContext } from './errors.js';

/** The signed-in operator of an admin panel request, with the cookie value of its session. */
export interface OperatorIdentity extends PanelSession {
  sessionId: string;
}

/** What a handler knows about the request besides its validated parts. */
export interface RequestContext extends ErrorContext {
  /** The bearer token's principal. Set on operations with the bearer scheme only; admin handlers use `operator`. */
  principal: Principal;
  /** The signed-in operator, on operations with the adminSession scheme. */
  operator?: OperatorIdentity;
  /** The client's address (sign-in attempts are limited per address). */
  clientAddress: string;
  /** The request came over TLS (directly, or says a proxy): session cookies are then Secure. */
  secure: boolean;
  /** Aborted when the response closes (sent, or the client went away); ends streamed responses. */
  signal: AbortSignal;
}
