/**
 * What the control plane keeps of a Docker session on its own disk, under
 * <dataDir>/docker/sessions/<session>: the working directory's filesystem (engines on this
 * machine), the copied artifacts, and `end.json`, the container's end as it was recorded.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ArtifactCopy } from './artifact-copy.js';
import { removeWorkFilesystem } from './work-filesystem.js';

export interface RecordedEnd {
  exitCode: number;
  oomKilled: boolean;
  at: number;
  containerId?: string;
  nodeId?: string;
  artifacts?: ArtifactCopy;
  workDir?: string;
}

export class SessionFiles {
  constructor(private readonly dataDir: string) {}

  get root(): string {
    return join(this.dataDir, 'docker', 'sessions');
  }

  dir(sessionId: string): string {
    return join(this.root, encodeURIComponent(sessionId));
  }

  artifacts(sessionId: string): string {
    return join(this.dir(sessionId), 'artifacts');
  }

  readEnd(sessionId: string): RecordedEnd | undefined {
    try {
      return JSON.parse(readFileSync(join(this.dir(sessionId), 'end.json'), 'utf8'));
    } catch {
      return undefined;
    }
  }

  writeEnd(sessionId: string, end: RecordedEnd): void {
    writeFileSync(join(this.dir(sessionId), 'end.json'), JSON.stringify(end));
  }

  /** A session's directory: its artifacts, and its working directory's filesystem if still there. */
  async remove(sessionId: string): Promise<void> {
    const dir = this.dir(sessionId);
    if (await removeWorkFilesystem(dir)) rmSync(dir, { recursive: true, force: true });
  }
}
