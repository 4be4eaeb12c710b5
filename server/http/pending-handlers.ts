/**
 * Operations that are in the contract but whose server side lands in a later issue (sessions,
 * locations, logs, artifacts, events, webhooks). They answer the documented generic 500 and
 * log why, so the route table stays complete and a missing handler stays a compile error.
 */
import type { OperationId } from '../../generated/handlers.js';

export class OperationNotImplemented extends Error {
  constructor(readonly operationId: OperationId) {
    super(`operation ${operationId} is not implemented yet`);
  }
}

export function pendingHandlers<const Ids extends readonly OperationId[]>(
  ids: Ids,
): Record<Ids[number], () => Promise<never>> {
  return Object.fromEntries(
    ids.map((id) => [id, async () => Promise.reject(new OperationNotImplemented(id))]),
  ) as Record<Ids[number], () => Promise<never>>;
}
