/**
 * A session's working directory with a size limit, for an engine on this machine: a sparse ext4
 * image of `sizeMb`, loop-mounted nosuid,nodev on the host and bind-mounted into the container
 * (a bind mount keeps its source's flags). The filesystem's size is the limit: a write past it
 * fails with ENOSPC inside the container, and the host never holds more than `sizeMb` for it.
 * (Docker's own `size` volume option needs XFS project quotas, which not every kernel has.)
 * Needs root, as mounting does. After the end, once the artifacts are copied out, it is removed.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, rmdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** `uid[:gid]` (the container's user) as the owner of the filesystem's root directory. */
function owner(user: string): string {
  const [uid, gid] = user.split(':');
  return `${uid}:${gid ?? uid}`;
}

/** Create and mount the filesystem under `sessionDir`; the directory to bind-mount. */
export async function createWorkFilesystem(sessionDir: string, sizeMb: number, user: string): Promise<string> {
  const image = join(sessionDir, 'work.img');
  const mountPoint = join(sessionDir, 'work');
  mkdirSync(mountPoint, { recursive: true, mode: 0o700 });
  await run('truncate', ['-s', `${sizeMb}M`, image]);
  // No reserved blocks, no journal (the filesystem lives as long as its session).
  await run('mkfs.ext4', ['-q', '-F', '-m', '0', '-O', '^has_journal', '-E', `root_owner=${owner(user)}`, image]);
  await run('mount', ['-o', 'loop,nosuid,nodev', image, mountPoint]);
  return mountPoint;
}

/**
 * Unmount and delete it (the loop device goes with the mount); nothing there is fine. Still in
 * use (it cannot be unmounted): left alone, never deleted through the mount.
 */
export async function removeWorkFilesystem(sessionDir: string): Promise<boolean> {
  const mountPoint = join(sessionDir, 'work');
  if (existsSync(mountPoint)) {
    await run('umount', [mountPoint]).catch(() => {});
    try {
      rmdirSync(mountPoint);
    } catch {
      return false;
    }
  }
  rmSync(join(sessionDir, 'work.img'), { force: true });
  return true;
}
