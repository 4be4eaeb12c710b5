export interface GameCommand {
  cwd: string;
  env: Record<string, string>;
  argv: string[];
}
export function gameCommand(
  spec: { env: Record<string, string>; file: string; args: readonly string[]; sandbox?: { argv: readonly string[] } | undefined },
  workDir: string,
): GameCommand;
export function execCommand(command: GameCommand): string;
export function exportable(env: Record<string, string>): boolean;
export function spawnGame(cgroups: readonly string[], command: GameCommand): import('node:child_process').ChildProcess;
