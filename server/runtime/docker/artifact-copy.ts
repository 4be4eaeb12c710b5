/**
 * Copying a session's working directory out of its container (the engine's archive API, a tar
 * stream) into the artifact root, within a per-session cap: entries and bytes are counted from
 * each entry's header (its full size: a sparse file counts as large as it reads), and the copy
 * stops at the first entry that would pass either limit, without reading it. Nothing keeps
 * its owner (files belong to the service) and modes are masked: no setuid, setgid or sticky bit,
 * no write bit for group or others. Only files, directories and links are written (tar skips
 * devices and fifos).
 */
import { statfs } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { extract } from 'tar';

export interface ArtifactLimits {
  maxBytes: number;
  maxEntries: number;
}

export interface ArtifactCopy {
  bytes: number;
  entries: number;
  /** Why the copy is incomplete (or did not happen), when it is. */
  truncated?: string;
}

const MODE_MASK = 0o755;

export async function copyArtifacts(archive: Readable, dir: string, limits: ArtifactLimits): Promise<ArtifactCopy> {
  const copy: ArtifactCopy = { bytes: 0, entries: 0 };
  const { bavail, bsize } = await statfs(dir);
  if (bavail * bsize < limits.maxBytes) {
    archive.destroy();
    return { ...copy, truncated: `not copied: ${dir} has less than the ${limits.maxBytes} bytes free a copy may take` };
  }
  const unpack = extract({
    cwd: dir,
    // The archive's top entry is the directory itself; tar refuses absolute paths and `..`.
    strip: 1,
    preserveOwner: false,
    filter: (_path, entry) => {
      if (copy.truncated) return false;
      const size = 'size' in entry ? entry.size : 0;
      if (copy.entries + 1 > limits.maxEntries || copy.bytes + size > limits.maxBytes) {
        copy.truncated = `stopped at the cap of ${limits.maxEntries} entries and ${limits.maxBytes} bytes`;
        archive.destroy();
        return false;
      }
      copy.entries++;
      copy.bytes += size;
      if ('mode' in entry && typeof entry.mode === 'number') entry.mode &= MODE_MASK;
      return true;
    },
  });
  try {
    await pipeline(archive, unpack);
  } catch (error) {
    // Cut short by the cap (what was written stays), or no working directory at all.
    if (!copy.truncated && copy.entries > 0) copy.truncated = `interrupted: ${(error as Error).message}`;
  }
  return copy;
}
