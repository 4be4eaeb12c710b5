/**
 * The instance id of a data directory. Supervisors (and containers) carry it, so an instance
 * adopts, stops and counts only what it started: a copy of a data directory started beside the
 * original leaves the original's game servers alone. The id is kept in `DATA_DIR/instance.json`
 * with the directory's device and inode; a copy (new inode) gets a new id on its first start.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

interface InstanceFile {
  id: string;
  dev: number;
  ino: number;
}

export function instanceIdentity(dataDir: string): { id: string; copiedFrom?: string } {
  const file = join(dataDir, 'instance.json');
  const { dev, ino } = statSync(dataDir);
  let stored: InstanceFile | undefined;
  try {
    stored = JSON.parse(readFileSync(file, 'utf8')) as InstanceFile;
  } catch {
    // A new data directory (or one from before instance ids).
  }
  if (stored && stored.dev === dev && stored.ino === ino) return { id: stored.id };
  // Before instance.json, the Docker runtime kept an id of its own: its containers stay ours.
  const id = (!stored && readIfExists(join(dataDir, 'docker', 'instance-id'))) || randomUUID();
  writeFileSync(file, JSON.stringify({ id, dev, ino }), { mode: 0o600 });
  return stored ? { id, copiedFrom: stored.id } : { id };
}

function readIfExists(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    return undefined;
  }
}
