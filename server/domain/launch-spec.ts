/**
 * What the runtime is asked to launch for a session: the image's command or container, the
 * request's args, and an environment whose session identity (id, host, ports) the caller cannot
 * override.
 */
import { resolve } from 'node:path';
import type { ImageConfig, SessionLimits, TagConfig } from '../config/fleet-types.js';
import { projectRoot } from '../project-root.js';
import { dockerImageRef } from './catalog.js';
import type { LaunchSpec } from './ports/runtime.js';
import type { PortAllocation, SessionRecord } from './ports/sessions.js';
import type { WarmServer } from './ports/warm-servers.js';

const DEFAULT_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

/** What a launch needs of its session. */
type Launched = Pick<SessionRecord, 'key' | 'id' | 'accountId' | 'location' | 'nodeId' | 'host' | 'ports' | 'restart' | 'labels' | 'tag' | 'args'>;

export function launchSpec(
  session: Launched,
  image: ImageConfig,
  tag: TagConfig,
  limits: SessionLimits,
  callerEnv: Record<string, string>,
): LaunchSpec {
  const base = {
    sessionId: session.key,
    publicId: session.id,
    accountId: session.accountId,
    location: session.location,
    nodeId: session.nodeId,
    host: session.host,
    ports: session.ports,
    restart: session.restart,
    limits,
    labels: session.labels,
    sdk: { readiness: tag.readiness ?? 'ports', ...(tag.healthSeconds ? { healthSeconds: tag.healthSeconds } : {}) },
  };
  const identity = sessionEnv(session.id, session.host, session.ports);
  const ref = dockerImageRef(image, session.tag, tag);
  if (tag.docker && ref) {
    // A container: the image's entrypoint runs; its PATH comes from the image.
    return {
      ...base,
      container: { ...tag.docker, image: ref, ...(tag.command ? { command: tag.command } : {}) },
      file: '',
      args: session.args,
      env: { ...callerEnv, ...identity },
    };
  }
  const { file, args } = resolveCommand(tag.command ?? []);
  return {
    ...base,
    file,
    args: [...args, ...session.args],
    // The caller's env first, so it cannot override what identifies the session.
    env: { ...callerEnv, PATH: DEFAULT_PATH, ...identity },
  };
}

/**
 * A warm pool's game server: the pool's env and args, no session (no SESSION_ID, no account, no
 * labels) until a start claims it; it is not restarted while warm (a crash is replaced).
 */
export function warmLaunchSpec(
  server: WarmServer,
  pool: { env: Record<string, string>; args: string[] },
  image: ImageConfig,
  tag: TagConfig,
  limits: SessionLimits,
): LaunchSpec {
  const { key, location, nodeId, host, ports } = server;
  const spec = launchSpec({ key, id: '', accountId: '', location, nodeId, host, ports, restart: false, labels: {}, tag: server.tag, args: pool.args }, image, tag, limits, pool.env);
  const { SESSION_ID: _none, ...env } = spec.env;
  return { ...spec, env, warm: true };
}

export function sessionEnv(id: string, host: string, ports: readonly PortAllocation[]): Record<string, string> {
  const env: Record<string, string> = { SESSION_ID: id, SESSION_HOST: host };
  for (const port of ports) env[`PORT_${port.name.toUpperCase()}`] = String(port.host);
  return env;
}

/** The command of a tag as an executable path and arguments. */
function resolveCommand(command: readonly string[]): { file: string; args: string[] } {
  const [first, ...rest] = command as [string, ...string[]];
  const file = first === 'node' ? process.execPath : first;
  const fromRoot = (entry: string) => (entry.startsWith('./') ? resolve(projectRoot, entry) : entry);
  return { file: fromRoot(file), args: rest.map(fromRoot) };
}
