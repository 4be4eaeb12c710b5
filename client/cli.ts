#!/usr/bin/env -S node --import tsx
/**
 * session-host: the command-line tool for operators and integrators, on the client SDK.
 *
 *   session-host tokens create --name matchmaker --scope session:start,session:read --expires-after 2h
 *   session-host sessions start --image echo --location local-a --fallback local-b --wait
 *   session-host sessions list --json | jq -r '.sessions[].id'
 *
 * Base URL and token from --url/--token or SESSION_HOST_URL/SESSION_HOST_TOKEN. Tables for
 * people, --json for scripts (errors then go to stderr as {"error": <Error body>}). Exit codes: see
 * client/cli/output.ts (EXIT) and `session-host --help`.
 */
import { randomUUID } from 'node:crypto';
import { Command, InvalidArgumentError, Option } from 'commander';
import type { Scope, Session, SessionStatus } from '../generated/types.js';
import { createSessionHostClient, startSession, unwrap, waitForStatus, type SessionHostClient } from './index.js';
import { EXIT, exitCodesHelp, fields, json, progress, reportError, table, time } from './cli/output.js';
import { probe } from './cli/probe.js';
import { terminalSafeLine, terminalSafeWriter } from './cli/terminal-safe.js';
import { resetOperatorPassword } from '../server/admin-reset.js';


interface GlobalOptions {
  url: string;
  token?: string;
  json?: boolean;
}

const program = new Command('session-host')
  .description('Operate a session host: tokens, game server sessions, locations, account.')
  .addOption(new Option('--url <url>', 'base URL of the service').env('SESSION_HOST_URL').default('http://127.0.0.1:8080'))
  .addOption(new Option('--token <token>', 'bearer token (gsh_…)').env('SESSION_HOST_TOKEN'))
  .option('--json', 'machine-readable JSON on stdout (errors as JSON on stderr)')
  .addHelpText('after', exitCodesHelp)
  .showHelpAfterError('(add --help for usage)');

const interrupt = new AbortController();
process.once('SIGINT', () => interrupt.abort(Object.assign(new Error('interrupted'), { name: 'AbortError' })));

function globals(command: Command): GlobalOptions {
  return command.optsWithGlobals<GlobalOptions>();
}

/** True for an absolute http(s) URL: `127.0.0.1:8080` does not parse, and `localhost:8080` parses with the scheme `localhost:`. */
function isHttpUrl(text: string): boolean {
  return URL.canParse(text) && ['http:', 'https:'].includes(new URL(text).protocol);
}

function client(command: Command): SessionHostClient {
  const { url, token } = globals(command);
  // Checked here, not left to fetch: its "Failed to parse URL" exited 2 as if the service had answered.
  if (!isHttpUrl(url)) {
    program.error(`error: --url / SESSION_HOST_URL "${terminalSafeLine(url)}" is not an http:// or https:// URL (for example http://127.0.0.1:8080)`, { exitCode: EXIT.usage });
  }
  if (!token) program.error('error: no token: pass --token or set SESSION_HOST_TOKEN', { exitCode: EXIT.usage });
  return createSessionHostClient({ baseUrl: url, token });
}

/** Runs an action; an error becomes a message (with the identifier) and an exit code. */
function action<A extends unknown[]>(fn: (command: Command, ...args: A) => Promise<void>) {
  return async (...args: unknown[]) => {
    const command = args.at(-1) as Command;
    try {
      await fn(command, ...(args.slice(0, -2) as A));
    } catch (error) {
      process.exitCode = reportError(error, globals(command).json ?? false);
    }
  };
}

/** The answer on stdout: JSON with --json, else the human form (tables and fields show control characters as text). */
function print(command: Command, body: unknown, human: () => string) {
  process.stdout.write(`${globals(command).json ? json(body, 2) : human()}\n`);
}

/** A read-only command: one GET, its answer printed (a table or fields for people, the body with --json). */
function showCommand<T>(
  parent: Command,
  name: string,
  description: string,
  read: (api: SessionHostClient) => Promise<{ data?: T; error?: unknown; response: Response }>,
  human: (body: T) => string,
) {
  parent
    .command(name)
    .description(description)
    .action(
      action(async (command) => {
        const body = unwrap(await read(client(command)));
        print(command, body, () => human(body));
      }),
    );
}

/** `--scope a,b --scope c` → ['a', 'b', 'c']. */
const list = (value: string, previous: string[] = []) => [...previous, ...value.split(',').map((v) => v.trim()).filter(Boolean)];
/** `--env K=V` repeated → { K: 'V' }. */
const pairs = (value: string, previous: Record<string, string> = {}) => {
  const at = value.indexOf('=');
  // InvalidArgumentError: commander's usage error (one line, exit 1); a plain Error left a stack trace.
  if (at < 1) throw new InvalidArgumentError(`expected KEY=VALUE, got ${terminalSafeLine(value)}`);
  return { ...previous, [value.slice(0, at)]: value.slice(at + 1) };
};
const seconds = (value: string) => {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError(`expected a number of seconds, got ${terminalSafeLine(value)}`);
  return n;
};

const minutes = (value: number) => Number(value.toFixed(2));
const ports = (session: Session) => session.ports.map((p) => `${p.host}/${p.type}${p.name ? `(${p.name})` : ''}`).join(',');
const sessionTable = (sessions: Session[]) =>
  table(
    ['ID', 'STATUS', 'LOCATION', 'IMAGE', 'HOST', 'PORTS', 'PLAYERS', 'CREATED'],
    sessions.map((s) => [s.id, s.status, s.location, `${s.image}:${s.tag}`, s.host, ports(s), s.players.joinedCount, time(s.created)]),
  );
const sessionFields = (s: Session) =>
  fields([
    ['id', s.id],
    ['status', s.status],
    ['location', s.location],
    ['image', `${s.image}:${s.tag}`],
    ['host', s.host],
    ['ports', ports(s)],
    ['players', s.players.joined.join(', ')],
    ['labels', Object.entries(s.labels).map(([k, v]) => `${k}=${v}`).join(', ')],
    ['created', time(s.created)],
    ['started', time(s.started)],
    ['expires', time(s.expires)],
    ['ended', time(s.ended)],
    ['exit code', s.exit_code],
    ['end reason', s.end_reason],
  ]);

/** Waits for a status with a progress line on stderr. */
async function waitWithProgress(api: SessionHostClient, id: string, status: SessionStatus[], timeoutSeconds: number): Promise<Session> {
  const line = progress();
  const since = Date.now();
  const elapsed = () => `${((Date.now() - since) / 1000).toFixed(1)}s`;
  try {
    const { session } = await waitForStatus(api, id, status, {
      timeoutMs: timeoutSeconds * 1000,
      signal: interrupt.signal,
      onStatus: (now) => line.update(`waiting for ${id} to be ${status.join('|')}: ${now} (${elapsed()})`),
    });
    line.update(`${id} is ${session.status} (${elapsed()})`);
    return session;
  } finally {
    line.done();
  }
}

// --- tokens ---------------------------------------------------------------------------------

const tokens = program.command('tokens').description('create, list and revoke bearer tokens (scope token:write)');

tokens
  .command('create')
  .description('mint a token; its value is shown once')
  .requiredOption('--name <name>', 'a label for people')
  .requiredOption('--scope <scopes>', 'scopes, comma-separated or repeated (session:start, session:read, ...)', list)
  .option('--expires-after <duration>', 'lifetime: 30m, 2h, 1h30m (default: never expires)')
  .action(
    action(async (command) => {
      const options = command.opts<{ name: string; scope: Scope[]; expiresAfter?: string }>();
      const created = unwrap(
        await client(command).POST('/token', {
          body: { name: options.name, scopes: options.scope, ...(options.expiresAfter ? { expires_after: options.expiresAfter } : {}) },
        }),
      );
      print(command, created, () =>
        [
          fields([
            ['id', created.id],
            ['name', created.name],
            ['scopes', created.scopes.join(', ')],
            ['expires', created.expires_at ?? 'never'],
          ]),
          '',
          'token (shown only now, store it):',
          terminalSafeLine(created.token),
        ].join('\n'),
      );
    }),
  );

showCommand(tokens, 'list', "the account's tokens, values masked", (api) => api.GET('/token'), (listed) =>
  table(
    ['ID', 'NAME', 'STATUS', 'SCOPES', 'TOKEN', 'EXPIRES', 'LAST USED'],
    listed.tokens.map((t) => [t.id, t.name, t.status, t.scopes.join(','), t.token, t.expires_at, t.last_used]),
  ),
);

tokens
  .command('revoke')
  .description('revoke a token (and the tokens it issued)')
  .argument('<id>', 'token id (tok_…)')
  .action(
    action(async (command, id: string) => {
      const result = await client(command).DELETE('/token/{id}', { params: { path: { id } } });
      unwrap(result);
      print(command, { id, revoked: true }, () => `revoked ${id}`);
    }),
  );

// --- sessions -------------------------------------------------------------------------------

const sessions = program.command('sessions').description('start, list, show, stop game server sessions and read their logs');

sessions
  .command('start')
  .description('start a session; on 420 retry after Retry-After, then the --fallback locations in order')
  .requiredOption('--image <image>', 'image name')
  .requiredOption('--location <location>', 'location to start in')
  .option('--fallback <locations>', 'secondary locations, comma-separated or repeated, tried in order', list)
  .option('--id <id>', 'session id (default: a random UUID)')
  .option('--tag <tag>', "image tag (default: the image's default)")
  .option('--env <KEY=VALUE>', 'environment for the game server (repeatable)', pairs)
  .option('--label <KEY=VALUE>', 'label (repeatable)', pairs)
  .option('--arg <arg>', 'argument appended to the command (repeatable)', (v: string, p: string[] = []) => [...p, v])
  .option('--restart', 'restart the game server when it crashes')
  .option('--ttl <duration>', 'stop it after 30m, 2h, 1h30m')
  .option('--wait', 'wait until it is running, with a progress line on stderr')
  .option('--timeout <seconds>', 'with --wait: give up after this long', seconds, 60)
  .action(
    action(async (command) => {
      const o = command.opts<{
        image: string;
        location: string;
        fallback?: string[];
        id?: string;
        tag?: string;
        env?: Record<string, string>;
        label?: Record<string, string>;
        arg?: string[];
        restart?: boolean;
        ttl?: string;
        wait?: boolean;
        timeout: number;
      }>();
      const api = client(command);
      const { session, location, alreadyStarted } = await startSession(
        api,
        {
          id: o.id ?? randomUUID(),
          location: o.location,
          image: o.image,
          ...(o.tag ? { version: o.tag } : {}),
          ...(o.env ? { env: o.env } : {}),
          ...(o.label ? { labels: o.label } : {}),
          ...(o.arg ? { args: o.arg } : {}),
          restart: o.restart ?? false,
          ...(o.ttl ? { ttl: o.ttl } : {}),
        },
        {
          locations: o.fallback ?? [],
          signal: interrupt.signal,
          onRetry: ({ location: where, error, delayMs }) =>
            process.stderr.write(`${terminalSafeLine(`${where}: ${error.message}`)}; retrying in ${(delayMs / 1000).toFixed(1)}s\n`),
        },
      );
      if (location !== o.location) process.stderr.write(`started in secondary location ${terminalSafeLine(location)}\n`);
      if (alreadyStarted) process.stderr.write(`${terminalSafeLine(session.id)} was already started by an earlier attempt\n`);
      const final = o.wait ? await waitWithProgress(api, session.id, ['running'], o.timeout) : session;
      print(command, final, () => sessionFields(final));
    }),
  );

sessions
  .command('list')
  .description("the account's sessions, newest first (live ones unless --all)")
  .option('--all', 'include ended sessions')
  .option('--location <location>', 'only in this location')
  .option('--image <image>', 'only of this image')
  .option('--status <status>', 'only in this status')
  .action(
    action(async (command) => {
      const o = command.opts<{ all?: boolean; location?: string; image?: string; status?: SessionStatus }>();
      const listed = unwrap(
        await client(command).GET('/session', {
          params: {
            query: {
              ...(o.all ? { all: true } : {}),
              ...(o.location ? { location: o.location } : {}),
              ...(o.image ? { image: o.image } : {}),
              ...(o.status ? { status: o.status } : {}),
            },
          },
        }),
      );
      print(command, listed, () => sessionTable(listed.sessions));
    }),
  );

sessions
  .command('show')
  .description('one session')
  .argument('<id>', 'session id')
  .action(
    action(async (command, id: string) => {
      const session = unwrap(await client(command).GET('/session/{id}', { params: { path: { id } } }));
      print(command, session, () => sessionFields(session));
    }),
  );

sessions
  .command('stop')
  .description('stop a session (SIGTERM, grace period, SIGKILL)')
  .argument('<id>', 'session id')
  .option('--wait', 'wait until it has ended')
  .option('--timeout <seconds>', 'with --wait: give up after this long', seconds, 60)
  .action(
    action(async (command, id: string) => {
      const o = command.opts<{ wait?: boolean; timeout: number }>();
      const api = client(command);
      unwrap(await api.DELETE('/session/{id}', { params: { path: { id } } }));
      if (!o.wait) return print(command, { id, stopping: true }, () => `stopping ${id}`);
      const session = await waitWithProgress(api, id, ['exited', 'dead'], o.timeout);
      print(command, session, () => sessionFields(session));
    }),
  );

sessions
  .command('probe')
  .description("send a UDP datagram or TCP line to each of the session's ports and print the answers (no nc needed)")
  .argument('<id>', 'session id')
  .option('--message <text>', 'what to send', 'ping')
  .option('--timeout <seconds>', 'how long to wait for each answer', seconds, 3)
  .action(
    action(async (command, id: string) => {
      const o = command.opts<{ message: string; timeout: number }>();
      const session = unwrap(await client(command).GET('/session/{id}', { params: { path: { id } } }));
      if (session.status === 'exited' || session.status === 'dead') {
        // Its ports went back to the node: probed, another session's game server answered and the probe passed.
        const ended = `session ${session.id} has ended (${session.status}, ${session.end_reason ?? 'no reason'}): its ports are released and may be another session's now; nothing was probed`;
        reportError(new Error(ended), globals(command).json ?? false);
        process.exitCode = EXIT.probe;
        return;
      }
      const results = await probe(session.host, session.ports, o.message, o.timeout * 1000);
      print(command, results, () => table(['PORT', 'TYPE', 'NAME', 'ANSWER'], results.map((r) => [r.port, r.type, r.name ?? '', r.answer ?? `(${r.error})`])));
      if (results.some((r) => r.answer === undefined)) process.exitCode = EXIT.probe;
    }),
  );

sessions
  .command('logs')
  .description("the game server's output")
  .argument('<id>', 'session id')
  .option('-f, --follow', 'keep streaming until the session ends')
  .option('--raw', "on a terminal too, the game server's bytes as they are (control characters are shown as text otherwise)")
  .action(
    action(async (command, id: string) => {
      const o = command.opts<{ follow?: boolean; raw?: boolean }>();
      const result = await client(command).GET('/logs', {
        params: { query: { id, ...(o.follow ? { follow: true } : {}) } },
        parseAs: 'stream',
        signal: interrupt.signal,
      });
      const stream = unwrap(result);
      // An untrusted game's escape sequences must not reach the studio's terminal (clipboard, title, screen).
      const out = process.stdout.isTTY && !o.raw ? terminalSafeWriter((text) => process.stdout.write(text)) : { write: (chunk: Uint8Array) => process.stdout.write(chunk), end() {} };
      for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>) out.write(chunk);
      out.end();
    }),
  );

// --- locations, account ---------------------------------------------------------------------

showCommand(program, 'locations', 'locations with their status, free capacity and nodes', (api) => api.GET('/location'), (listed) =>
  table(
    ['ID', 'STATUS', 'FREE', 'USED', 'TOTAL', 'NODES', 'IPS'],
    listed.locations.map((l) => [l.id, l.status, l.capacity.free, l.capacity.used, l.capacity.total, l.nodes.map((n) => `${n.id}${n.locked ? '(locked)' : ''}`).join(','), l.ips.join(',')]),
  ),
);

showCommand(program, 'account', "the token's account and its runtime quota (minutes)", (api) => api.GET('/account'), (account) =>
  fields([
    ['id', account.id],
    ['name', account.name],
    ['quota total', `${account.quota.total} min`],
    ['quota used', `${minutes(account.quota.used)} min`],
    ['quota remaining', `${minutes(account.quota.remaining)} min`],
  ]),
);

// --- admin (on the data directory, not over the API) --------------------------------------------
program
  .command('admin')
  .description("operator tasks on a stopped service's data directory (DATA_DIR)")
  .command('reset-password')
  .description('set a new admin panel password: ADMIN_PASSWORD, or a generated one printed once')
  .option('--email <email>', 'the operator (default: ADMIN_EMAIL, or admin@localhost)')
  .action(async (o: { email?: string }) => {
    const outcome = await resetOperatorPassword(process.env, o.email);
    if (!outcome.ok) {
      process.stderr.write(`error: ${outcome.message}\n`);
      process.exitCode = EXIT.usage;
      return;
    }
    process.stdout.write(
      outcome.generatedPassword
        ? `New password for ${outcome.email}, not shown again:\n\n  ${outcome.generatedPassword}\n\n`
        : `Password for ${outcome.email} set from ADMIN_PASSWORD.\n`,
    );
  });

await program.parseAsync(process.argv);
