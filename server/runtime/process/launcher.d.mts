export interface GameCommand {
  cwd: string;
  env: Record<string, string>;
  argv: string[];
  /** The sandbox's seccomp filter, opened on `fd` for its bubblewrap (sandboxed sessions). */
  seccomp?: SeccompHandoff | undefined;
}
export interface SeccompHandoff {
  fd: number;
  file: string;
}
export function gameCommand(
  spec: { env: Record<string, string>; file: string; args: readonly string[]; sandbox?: { argv: readonly string[]; seccomp: SeccompHandoff } | undefined },
  workDir: string,
): GameCommand;
export function execCommand(command: GameCommand): string;
export function exportable(env: Record<string, string>): boolean;
export function spawnGame(cgroups: readonly string[], command: GameCommand): import('node:child_process').ChildProcess;
export function withSeccomp<T>(
  seccomp: SeccompHandoff | undefined,
  stdio: import('node:child_process').IOType[],
  start: (stdio: import('node:child_process').StdioOptions) => T,
): T;
