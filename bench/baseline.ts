/**
 * "Today's figure measured by the same harness" (issue 19): the service as it was at another
 * commit, exported to a temporary directory (git archive) with this checkout's node_modules,
 * started beside ours in the same run. BENCH_BASELINE names the commit (default: the first
 * wave's last, before the second wave's changes); BENCH_BASELINE=none leaves it out.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { projectRoot } from './service.js';

/** main when the second wave began (the first wave's work, plus the pg dependency). */
const FIRST_WAVE = '2273f1f';

export interface Baseline {
  commit: string;
  root: string;
  remove(): void;
}

export function exportBaseline(): Baseline | undefined {
  const commit = process.env.BENCH_BASELINE ?? FIRST_WAVE;
  if (commit === 'none') return undefined;
  const root = mkdtempSync(join(tmpdir(), 'session-host-baseline-'));
  try {
    const archive = execFileSync('git', ['archive', '--format=tar', commit], { cwd: projectRoot, maxBuffer: 512 * 1024 * 1024 });
    execFileSync('tar', ['-x', '-C', root], { input: archive });
    symlinkSync(join(projectRoot, 'node_modules'), join(root, 'node_modules'));
  } catch (error) {
    rmSync(root, { recursive: true, force: true });
    throw new Error(`BENCH_BASELINE ${commit}: cannot export it (${(error as Error).message.split('\n')[0]}); set BENCH_BASELINE=none to leave it out`);
  }
  return { commit, root, remove: () => rmSync(root, { recursive: true, force: true }) };
}
