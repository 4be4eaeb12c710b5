/**
 * Output of the command-line tool: aligned tables for people, JSON for scripts, exit codes.
 * What the service answers (labels, token names, messages, a probed game's answer) is someone
 * else's text: tables, fields, errors and progress show its control characters as text
 * (terminal-safe.ts), and JSON escapes them, so none reaches the terminal to act.
 */
import { ApiError, UnexpectedResponseError, UnreachableError, WaitError } from '../errors.js';
import { terminalSafeJson, terminalSafeLine } from './terminal-safe.js';

/** Exit codes scripts can branch on (also in README.md and `session-host --help`). */
export const EXIT = {
  ok: 0,
  /** Bad flags or arguments, no token. */
  usage: 1,
  /** The service answered with an error (its `identifier` is printed). */
  api: 2,
  /** The service could not be reached. */
  unreachable: 3,
  /** `--wait`: the session ended in another status, or the timeout passed. */
  wait: 4,
  /** `sessions probe`: a port gave no answer, or the session has ended. */
  probe: 5,
  /** Interrupted (Ctrl-C). */
  interrupted: 130,
} as const;

export const exitCodesHelp = `
Exit codes:
  0    success
  1    usage error (unknown command or flag, missing argument, no token, a --url that is not http(s))
  2    the service answered with an error; its code and identifier are printed
  3    the service could not be reached (check --url / SESSION_HOST_URL)
  4    --wait: the session ended in another status, or --timeout passed
  5    sessions probe: a port gave no answer, or the session has ended
  130  interrupted`;

export function table(headers: string[], rows: (string | number | null | undefined)[][]): string {
  // Made safe before the widths are measured, so the columns stay aligned.
  const cells = [headers, ...rows.map((row) => row.map((cell) => (cell === null || cell === undefined || cell === '' ? '-' : terminalSafeLine(String(cell)))))];
  const widths = headers.map((_, column) => Math.max(...cells.map((row) => row[column]!.length)));
  return cells.map((row) => row.map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column]!))).join('  ')).join('\n');
}

/** A record as `key: value` lines. */
export function fields(record: [string, unknown][]): string {
  const width = Math.max(...record.map(([key]) => key.length));
  return record
    .map(([key, value]) => `${`${key}:`.padEnd(width + 1)} ${value === null || value === undefined || value === '' ? '-' : terminalSafeLine(typeof value === 'object' ? JSON.stringify(value) : String(value))}`)
    .join('\n');
}

/** JSON for --json: the values exactly, with nothing a terminal acts on (JSON.stringify leaves C1 controls raw). */
export const json = (value: unknown, indent?: number) => terminalSafeJson(JSON.stringify(value, null, indent));

export const time = (ms: number | null | undefined) => (ms === null || ms === undefined ? null : new Date(ms).toISOString());

/** Prints an error on stderr and returns the exit code for it. */
export function reportError(error: unknown, asJson: boolean): number {
  const write = (text: string) => process.stderr.write(`${text}\n`);
  if (error instanceof ApiError) {
    if (asJson) write(json({ error: error.body }));
    else {
      write(`error: ${terminalSafeLine(`${error.code} (${error.statusCode}): ${error.details ?? error.body.message}`)}`);
      for (const violation of error.violations ?? []) write(`  ${terminalSafeLine(violation.field)}: ${terminalSafeLine(violation.description)}`);
      write(`identifier: ${terminalSafeLine(error.identifier)}  (quote it to support: it is in the service log)`);
    }
    return EXIT.api;
  }
  const message = error instanceof Error ? error.message : String(error);
  if (asJson) write(json({ error: { message } }));
  else write(`error: ${terminalSafeLine(message)}`);
  if (error instanceof UnreachableError) return EXIT.unreachable;
  if (error instanceof UnexpectedResponseError) return EXIT.api;
  if (error instanceof WaitError) return EXIT.wait;
  if ((error as Error)?.name === 'AbortError') return EXIT.interrupted;
  return EXIT.api;
}

/** A progress line on stderr: rewritten in place on a terminal, one line per change otherwise. */
export function progress() {
  const tty = process.stderr.isTTY;
  let shown = false;
  return {
    update(text: string) {
      if (tty) process.stderr.write(`\r\x1b[2K${terminalSafeLine(text)}`);
      else process.stderr.write(`${terminalSafeLine(text)}\n`);
      shown = true;
    },
    done() {
      if (tty && shown) process.stderr.write('\n');
    },
  };
}
