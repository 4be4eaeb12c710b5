/** The answers for a session that is not the caller's (or not at all), and for one that has ended. */
import type { RequestContext } from '../context.js';
import { fail } from '../errors.js';

export const unknownSession = (context: RequestContext, id: string) =>
  fail(context, 'RESOURCE_NOT_FOUND', { details: `session ${id} is unknown` });

export const endedSession = (context: RequestContext, id: string) => fail(context, 'CONFLICT', { details: `session ${id} has already ended` });
