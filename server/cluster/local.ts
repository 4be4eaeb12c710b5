/**
 * Coordination for a single instance (SQLite, the default): messages go to this process's own
 * listeners, it is always the leader, and every lease is its own.
 */
import type { BusListener, Claim, ClaimEvents, Coordination } from './coordination.js';

export class LocalCoordination implements Coordination {
  private readonly listeners = new Map<string, Set<BusListener>>();
  private readonly claims = new Set<string>();

  constructor(readonly instanceId: string) {}

  async publish(topic: string, message: string): Promise<void> {
    for (const listener of [...(this.listeners.get(topic) ?? [])]) listener(message, this.instanceId);
  }

  subscribe(topic: string, listener: BusListener): () => void {
    let set = this.listeners.get(topic);
    if (!set) this.listeners.set(topic, (set = new Set()));
    set.add(listener);
    return () => set.delete(listener);
  }

  /** One process never misses its own messages. */
  onResync(): () => void {
    return () => {};
  }

  lead(role: string, events: ClaimEvents): Claim {
    return this.claim(`lead:${role}`, events);
  }

  lease(name: string, events: ClaimEvents): Claim {
    return this.claim(`lease:${name}`, events);
  }

  async close(): Promise<void> {
    this.listeners.clear();
  }

  private claim(key: string, events: ClaimEvents): Claim {
    if (this.claims.has(key)) throw new Error(`${key} is already claimed in this process`);
    this.claims.add(key);
    let held = true;
    events.gained();
    return {
      get held() {
        return held;
      },
      confirm: async () => held,
      // Nobody else can take it over: nothing to fence.
      fence: () => undefined,
      release: async () => {
        if (!held) return;
        held = false;
        this.claims.delete(key);
        events.lost();
      },
    };
  }
}
