import type { Principal } from '../domain/tokens.js';
import type { ErrorContext } from './errors.js';

/** What a handler knows about the request besides its validated parts. */
export interface RequestContext extends ErrorContext {
  principal: Principal;
  /** Aborted when the response closes (sent, or the client went away); ends streamed responses. */
  signal: AbortSignal;
}
