/**
 * Retention: ended sessions' containers (their logs) and copied artifacts are removed
 * `retentionHours` after the end; session networks nothing uses any more (a start interrupted
 * between network and container) go too. Live sessions are never touched.
 */
import type Docker from 'dockerode';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { onServiceClock } from './engine-clock.js';
import { LABEL, listContainers, type Engine } from './engine-client.js';
import type { SessionFiles } from './session-files.js';

export interface GarbageScope {
  engines: Iterable<Engine>;
  files: SessionFiles;
  instance: string;
  /** Sessions still watched: kept whatever their age. */
  isLive: (sessionId: string) => boolean;
  /** Ended before this (ms since the epoch): removed. */
  cutoff: number;
  /** The service's clock (an engine's times are translated to it: engine-clock.ts). */
  now: () => number;
}

export async function collectGarbage(scope: GarbageScope): Promise<void> {
  const { files, isLive, cutoff } = scope;
  for (const engine of scope.engines) {
    let list: Docker.ContainerInfo[];
    try {
      list = await listContainers(engine, scope.instance, undefined, ['exited', 'dead']);
    } catch {
      continue;
    }
    for (const c of list) {
      const sessionId = c.Labels[LABEL.session]!;
      if (isLive(sessionId)) continue;
      let endedAt = files.readEnd(sessionId)?.at;
      if (endedAt === undefined) {
        const info = await engine.api.getContainer(c.Id).inspect().catch(() => undefined);
        endedAt = info ? await onServiceClock(engine, Date.parse(info.State.FinishedAt), scope.now) : undefined;
      }
      if (endedAt === undefined || endedAt > cutoff) continue;
      await engine.api.getContainer(c.Id).remove({ v: true }).catch(() => {});
      await files.remove(sessionId);
    }
    await removeStrayNetworks(engine, scope);
  }
  // Artifacts whose container is already gone.
  if (!existsSync(files.root)) return;
  for (const name of readdirSync(files.root)) {
    const sessionId = decodeURIComponent(name);
    const at = files.readEnd(sessionId)?.at ?? statSync(join(files.root, name)).mtimeMs;
    if (at <= cutoff && !isLive(sessionId)) await files.remove(sessionId);
  }
}

/** A session network younger than this may be a start's under way on another instance (its container not created yet). */
const STRAY_AFTER_MS = 10 * 60_000;

async function removeStrayNetworks(engine: Engine, scope: GarbageScope): Promise<void> {
  const networks = await engine.api.listNetworks({ filters: { label: [`${LABEL.instance}=${scope.instance}`] } }).catch(() => []);
  for (const network of networks) {
    const created = await onServiceClock(engine, Date.parse(network.Created), scope.now);
    if (scope.isLive(network.Labels?.[LABEL.session] ?? '') || !(created < scope.now() - STRAY_AFTER_MS)) continue;
    // Refused while a container is attached: a live session keeps its network.
    await engine.api.getNetwork(network.Id).remove().catch(() => {});
  }
}
