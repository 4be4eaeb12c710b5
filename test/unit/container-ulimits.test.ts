/**
 * A session's container gets a nofile ulimit, soft and hard (the tag's `openFiles`, default 1024):
 * the engine's default is dockerd's own limit (20,000 on the test engines, 524,288 hard under
 * systemd's defaults), so pids x that would be one container's share of the host's file table
 * (outside check 9, F6); no core dumps; an image's VOLUMEs in memory (outside check oc-scale).
 * Checked on what the runtime asks the engine for (a recording engine).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Docker from 'dockerode';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_OPEN_FILES, launchContainer } from '../../server/runtime/docker/container-launch.js';
import type { Engine } from '../../server/runtime/docker/engine-client.js';
import type { Tracked } from '../../server/runtime/docker/reconciler.js';
import { SessionFiles } from '../../server/runtime/docker/session-files.js';
import { listenerLaunch } from '../support/launch-specs.js';

let dataDir: string | undefined;
afterEach(() => {
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/** The HostConfig a launch asks a (remote, recording) engine for; `image` is what the image's inspect says. */
async function hostConfigOf(container: Record<string, unknown>, image: Partial<Docker.ImageInspectInfo['Config']> = {}): Promise<Docker.HostConfig> {
  let asked: Docker.ContainerCreateOptions | undefined;
  const api = {
    getImage: () => ({ inspect: async () => ({ Config: image }) }),
    createNetwork: async () => ({}),
    getNetwork: () => ({ disconnect: async () => {}, remove: async () => {} }),
    createContainer: async (options: Docker.ContainerCreateOptions) => {
      asked = options;
      return { id: 'c1', start: async () => {}, remove: async () => {} };
    },
  } as unknown as Docker;
  const engine = { nodeId: 'n1', api, streams: api, local: false, publishIp: '127.0.0.1', available: true } as Engine;
  const spec = { ...listenerLaunch('s1', 7777), args: [], container: { image: 'studio/game:1', pids: 64, ...container } };
  dataDir = mkdtempSync(join(tmpdir(), 'container-ulimits-'));
  await launchContainer(engine, spec, { workDir: '/work' } as Tracked, 'inst', new SessionFiles(dataDir));
  return asked!.HostConfig!;
}

describe('a container\'s open files', () => {
  it('are limited per process, soft and hard, to 1024 by default', async () => {
    expect(DEFAULT_OPEN_FILES).toBe(1024);
    expect((await hostConfigOf({})).Ulimits).toEqual([{ Name: 'nofile', Soft: 1024, Hard: 1024 }, { Name: 'core', Soft: 0, Hard: 0 }]);
  });

  it('follow the tag\'s openFiles', async () => {
    expect((await hostConfigOf({ openFiles: 256 })).Ulimits).toEqual([{ Name: 'nofile', Soft: 256, Hard: 256 }, { Name: 'core', Soft: 0, Hard: 0 }]);
  });
});

describe("an image's own VOLUMEs", () => {
  it('get a tmpfs each (the working directory and /tmp are mounted anyway), never an anonymous volume on the engine host', async () => {
    const volumes = { '/data': {}, '/srv/saves/': {}, '/work/': {}, '/tmp': {} };
    const tmpfs = (await hostConfigOf({}, { Volumes: volumes })).Tmpfs!;
    expect(Object.keys(tmpfs).sort()).toEqual(['/data', '/srv/saves', '/tmp']);
    expect(tmpfs['/data']).toBe(tmpfs['/tmp']);
  });
});
