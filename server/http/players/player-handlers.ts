/** Players joining and leaving sessions (the spec's Players tag). */
import type { Handlers } from '../../../generated/handlers.js';
import type { Sessions } from '../../domain/sessions.js';
import { fail, STORAGE_BUDGET_MESSAGE } from '../errors.js';
import { endedSession, unknownSession } from '../sessions/session-failures.js';

export function playerHandlers(sessions: Sessions): Pick<Handlers, 'joinPlayers' | 'leavePlayers'> {
  return {
    async joinPlayers({ body }, context) {
      const result = await sessions.join(context.principal.accountId, body.session, body.players);
      if (result.ok) return { status: 200, body: { count: result.players.length, players: result.players } };
      if (result.reason === 'full') {
        return fail(context, 'CONFLICT', { details: `session ${result.sessionId} would hold more than ${result.max} players; none of these joined` });
      }
      if (result.reason === 'storage_exceeded') {
        return fail(context, 'QUOTA_EXCEEDED', {
          message: STORAGE_BUDGET_MESSAGE,
          details: `the labels, args and players of the account's retained sessions would exceed its storage budget (${result.budgetBytes} bytes); none of these joined`,
        });
      }
      return result.reason === 'not_found' ? unknownSession(context, result.sessionId) : endedSession(context, result.sessionId);
    },

    async leavePlayers({ body }, context) {
      const result = await sessions.leave(context.principal.accountId, body.session, body.players);
      if (result.ok) return { status: 200, body: { count: result.players.length, players: result.players } };
      if (result.reason === 'ended') return endedSession(context, result.sessionId);
      return body.session === undefined
        ? fail(context, 'RESOURCE_NOT_FOUND', { details: `no live session has player ${result.sessionId}` })
        : unknownSession(context, result.sessionId);
    },
  };
}
