/**
 * A Docker session's container ended while the data disk is full: its end.json (and artifacts
 * directory) cannot be written. The end is reported all the same (the store records it, or retries
 * it while the store's disk is full too). Before, the failed write left the session's tracking in
 * its `ending` phase: the end was never reported, and every later look at the container returned at
 * once (already ending), so the session stayed running, and charged, until the service restarted.
 */
import type Docker from 'dockerode';
import { describe, expect, it } from 'vitest';
import type { RuntimeEvent } from '../../server/domain/ports/runtime.js';
import type { Engine } from '../../server/runtime/docker/engine-client.js';
import { Reconciler, type Tracked } from '../../server/runtime/docker/reconciler.js';
import { SessionFiles, type RecordedEnd } from '../../server/runtime/docker/session-files.js';
import { tempDirs } from '../support/temp-dirs.js';

const tempDir = tempDirs('docker-end-disk-full-');

/** An engine with one ended container (exit 3) whose working directory has nothing to copy. */
function engineWithEndedContainer(): Engine {
  const info = {
    Id: 'c1',
    Config: { WorkingDir: '/work', Labels: {} },
    // No engine time: the end is at the service's now (no clock measurement asked of the engine).
    State: { Status: 'exited', ExitCode: 3, OOMKilled: false, FinishedAt: '0001-01-01T00:00:00Z' },
    Mounts: [],
    HostConfig: { NetworkMode: 'default' },
  };
  const api = { getContainer: () => ({ inspect: async () => info }) } as unknown as Docker;
  const streams = { getContainer: () => ({ getArchive: async () => Promise.reject(new Error('no such path')) }) } as unknown as Docker;
  return { nodeId: 'n1', api, streams, local: false, publishIp: '127.0.0.1', available: true, lost: false, polling: false };
}

/** Session files on a disk that is full: every write fails ENOSPC. */
class FullDiskFiles extends SessionFiles {
  override writeEnd(_sessionId: string, _end: RecordedEnd): void {
    throw Object.assign(new Error('ENOSPC: no space left on device, open'), { code: 'ENOSPC' });
  }
}

describe('a Docker session ending while the data disk is full', () => {
  it('is reported ended', async () => {
    const events: RuntimeEvent[] = [];
    const engine = engineWithEndedContainer();
    const reconciler = new Reconciler({
      engines: new Map([[engine.nodeId, engine]]),
      files: new FullDiskFiles(tempDir()),
      instance: 'docker-end-disk-full-test',
      graceMs: 1000,
      now: Date.now,
      emit: (event) => events.push(event),
      closed: () => false,
      engineFailed: () => {},
      deadlines: { stopSlackMs: 1000, archiveMs: 1000 },
      gone: () => {},
    });
    const tracked: Tracked = { sessionId: 's1', nodeId: engine.nodeId, containerId: 'c1', ports: [], workDir: '/work', restart: false, phase: 'running', unreachable: false, checking: false, forgotten: false };
    reconciler.tracked.set(tracked.sessionId, tracked);

    await reconciler.reconcile(engine, tracked, { Id: 'c1', State: 'exited' });
    expect(events).toEqual([expect.objectContaining({ type: 'exited', sessionId: 's1', exitCode: 3 })]);
    expect(reconciler.tracked.has('s1')).toBe(false);
  });
});
