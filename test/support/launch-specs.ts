/** A process-runtime launch of a Node one-liner that listens on `port` (after `bindAfterMs`), for runtime-level tests. */
import type { LaunchSpec } from '../../server/domain/ports/runtime.js';

export function listenerLaunch(sessionId: string, port: number, options: { bindAfterMs?: number; limits?: Partial<LaunchSpec['limits']> } = {}): LaunchSpec {
  const listen = `require('node:net').createServer().listen(${port}, '127.0.0.1')`;
  return {
    sessionId,
    publicId: sessionId,
    accountId: 'acc',
    location: 'local',
    nodeId: 'n1',
    file: process.execPath,
    args: ['-e', options.bindAfterMs ? `setTimeout(() => ${listen}, ${options.bindAfterMs})` : listen],
    env: {},
    host: '127.0.0.1',
    ports: [{ name: 'query', type: 'tcp', container: port, host: port }],
    restart: false,
    limits: { memoryMb: 256, pids: 64, cpuShares: 1024, openFiles: 256, sessionOpenFiles: 4096, outputMb: 1, outputMbPerSecond: 1, fileMb: 1, workDirMb: 16, workDirFiles: 1000, startSeconds: 30, ...options.limits },
    labels: {},
    sdk: { readiness: 'ports' },
  };
}

/** A Docker-runtime launch of `image` on `nodeId` in location `dock`, its query port published on `port`, for runtime-level tests. */
export function containerLaunch(id: string, image: string, nodeId: string, port: number, env: Record<string, string> = {}): LaunchSpec {
  return {
    sessionId: `acc/${id}`,
    publicId: id,
    accountId: 'acc',
    location: 'dock',
    nodeId,
    container: { image, memoryMb: 64, cpus: 1, pids: 64, workMb: 16, artifactsMb: 8, user: '1000:1000' },
    file: '',
    args: [],
    env,
    host: '127.0.0.1',
    ports: [{ name: 'query', type: 'tcp', container: 7778, host: port }],
    restart: false,
    limits: { memoryMb: 64, pids: 64, cpuShares: 1024, openFiles: 1024, sessionOpenFiles: 16_384, outputMb: 8, outputMbPerSecond: 1, fileMb: 8, workDirMb: 16, workDirFiles: 1000, startSeconds: 60 },
    labels: {},
    sdk: { readiness: 'ports' },
  };
}
