/** Helpers for the tests that generate clients with other generators and run them. */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export function run(command: string, args: string[], cwd = process.cwd(), env: Record<string, string> = {}): Promise<{ code: number | null; output: string }> {
  return new Promise((done) => {
    const child = spawn(command, args, { cwd, env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk));
    child.on('close', (code) => done({ code, output }));
  });
}

/** Strict, as an integrator's project would be: a field typed wrong by the generator does not compile. */
const tsconfig = {
  compilerOptions: {
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    lib: ['ES2023', 'DOM', 'DOM.Iterable'],
    types: ['node'],
    strict: true,
    skipLibCheck: false,
    noEmit: true,
  },
  include: ['**/*.ts'],
};

/** A fresh ES-module project under test-results/ (git-ignored) for one generator's client. */
export function clientProject(prefix: string): string {
  mkdirSync('test-results', { recursive: true });
  const dir = resolve(mkdtempSync(join('test-results', `${prefix}-`)));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module', private: true }));
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(tsconfig, null, 2));
  return dir;
}

/** Compiles the project with tsc, then runs `script` with tsx against the service; the last output line parsed. */
export async function compileAndRun(dir: string, script: string, args: string[]): Promise<{ compiled: Awaited<ReturnType<typeof run>>; ran?: Awaited<ReturnType<typeof run>>; result?: unknown }> {
  const compiled = await run(process.execPath, [resolve('node_modules/typescript/bin/tsc'), '-p', dir]);
  if (compiled.code !== 0) return { compiled };
  const ran = await run(process.execPath, ['--import', 'tsx', join(dir, script), ...args]);
  if (ran.code !== 0) return { compiled, ran };
  return { compiled, ran, result: JSON.parse(ran.output.trim().split('\n').at(-1)!) };
}

/**
 * Compile-time checks every generated client's lifecycle script carries: the fields generators
 * have typed wrong before (a nullable enum typed non-null, a generated id typed required).
 * `Session` and `StartRequest` are the generator's own types.
 */
export const typeChecks = `
type IsNullable<T> = null extends T ? true : false;
type IsOptional<T, K extends keyof T> = {} extends Pick<T, K> ? true : false;
export const endReasonNullable: IsNullable<Session['end_reason']> = true;
export const exitCodeNullable: IsNullable<Session['exit_code']> = true;
export const endedNullable: IsNullable<Session['ended']> = true;
export const idOptional: IsOptional<StartRequest, 'id'> = true;
export const createdIsNumber: Session['created'] extends number ? true : false = true;
`;
