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
