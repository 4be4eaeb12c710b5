import type { PanelSession } from '../domain/operators.js';
import type { Principal } from '../domain/tokens.js';
import type { ErrorContext } from './errors.js';

/** The signed-in operator of an admin panel request, with the cookie value of its session. */
export interface OperatorIdentity extends PanelSession {
  sessionId: string;
}

/** What every handler knows about the request besides its validated parts. */
export interface RequestContext extends ErrorContext {
  /** The client's address (sign-in attempts are limited per address). */
  clientAddress: string;
  /** The request came over TLS (directly, or says a proxy): session cookies are then Secure. */
  secure: boolean;
  /** Aborted when the response closes (sent, or the client went away); ends streamed responses. */
  signal: AbortSignal;
  /** Calls `listener` once the response has closed, sent or not (at once if it has): what the answer held can go back. */
  onClosed(listener: () => void): void;
}

/** An operation without authentication (admin sign-in). */
export type PublicContext = RequestContext;

/** An operation with the bearer scheme: the token's principal, already checked for the operation's scopes. */
export interface BearerContext extends RequestContext {
  principal: Principal;
}

/** An operation with the adminSession scheme: the signed-in operator (cookie and, on changes, CSRF checked). */
export interface PanelContext extends RequestContext {
  operator: OperatorIdentity;
}

/** What authentication adds to the context, by scheme; set by the onRequest hook before any handler runs. */
export type Credentials = Pick<BearerContext, 'principal'> | Pick<PanelContext, 'operator'> | Record<never, never>;
