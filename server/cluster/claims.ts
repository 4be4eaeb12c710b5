/** The bookkeeping both PostgreSQL claim kinds share: who wants what, and whether it is held. */
import type { Claim, ClaimEvents, LeaseFence } from './coordination.js';

export interface ClaimState {
  events: ClaimEvents;
  held: boolean;
}

/** Mark a claim held or not, telling its owner when that changes. */
export function setHeld(state: ClaimState, held: boolean): void {
  if (state.held === held) return;
  state.held = held;
  if (held) state.events.gained();
  else state.events.lost();
}

/**
 * Register `state` under `name` and return its handle. Releasing removes it, tells the owner it
 * is lost (if held), then gives the claim back (`giveBack`, only when it was held). `confirm`
 * asks the database whether a held claim is still ours (by default: trust `held`); `fence` names
 * its generation (leases only).
 */
export function registerClaim<S extends ClaimState>(
  registry: Map<string, S>,
  name: string,
  state: S,
  giveBack: () => Promise<void>,
  confirm: () => Promise<boolean> = async () => state.held,
  fence: () => LeaseFence | undefined = () => undefined,
): Claim {
  if (registry.has(name)) throw new Error(`${name} is already claimed in this process`);
  registry.set(name, state);
  return {
    get held() {
      return state.held;
    },
    confirm: async () => state.held && registry.get(name) === state && (await confirm()),
    fence: () => (state.held && registry.get(name) === state ? fence() : undefined),
    release: async () => {
      if (registry.get(name) !== state) return;
      registry.delete(name);
      if (!state.held) return;
      setHeld(state, false);
      await giveBack();
    },
  };
}
