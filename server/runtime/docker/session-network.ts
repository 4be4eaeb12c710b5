/**
 * One Docker network per session: its container is alone on its bridge, so no other session's
 * container shares a link with it (Docker's default bridge puts every container of every account
 * on one). Between bridges there is only the host's routing, which the engine host's firewall
 * (deploy/docker/session-host-firewall.nft) closes for bridges named `shs-*`, together with every
 * connection from them to the host itself.
 */
import { randomBytes } from 'node:crypto';
import type Docker from 'dockerode';

/** The prefix of every session bridge's interface name: the firewall rules match on it. */
export const BRIDGE_PREFIX = 'shs-';

/** Create the session's network; its name is also its bridge's (15 characters, the kernel's limit). */
export async function createSessionNetwork(api: Docker, labels: Record<string, string>): Promise<string> {
  const name = `${BRIDGE_PREFIX}${randomBytes(6).toString('hex').slice(0, 11)}`;
  await api.createNetwork({
    Name: name,
    Driver: 'bridge',
    CheckDuplicate: true,
    Labels: labels,
    Options: {
      'com.docker.network.bridge.name': name,
      // Alone on its bridge anyway; off in case anything else is ever attached.
      'com.docker.network.bridge.enable_icc': 'false',
    },
  });
  return name;
}

/** Detach the (stopped) container and remove the network; a network already gone is fine. */
export async function removeSessionNetwork(api: Docker, name: string, containerId?: string): Promise<void> {
  const network = api.getNetwork(name);
  if (containerId) await network.disconnect({ Container: containerId, Force: true }).catch(() => {});
  await network.remove().catch(() => {});
}
