/**
 * `npm run backup -- <target directory>`: an online backup of DATA_DIR (default ./data) into a
 * new or empty directory. A running service takes it (through its control socket: it holds the
 * database's exclusive lock) between requests; with no service running it is taken here.
 * Exits 0 and prints what was written, or exits 1 with the reason.
 */
import { existsSync } from 'node:fs';
import { connect } from 'node:net';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { CONTROL_SOCKET, type ControlAnswer } from './control.js';
import { backupDataDir, DATABASE_FILE } from './store/backup.js';
import { refuseDamagedWal } from './store/sqlite.js';

function askService(dataDir: string, target: string): Promise<ControlAnswer | undefined> {
  return new Promise((done, fail) => {
    const socket = connect(join(dataDir, CONTROL_SOCKET));
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('connect', () => socket.write(`${JSON.stringify({ command: 'backup', target })}\n`));
    socket.on('data', (chunk) => (answer += chunk));
    socket.on('end', () => done(JSON.parse(answer) as ControlAnswer));
    socket.on('error', (error: NodeJS.ErrnoException) => {
      // No service running: nobody listens on the socket.
      if (error.code === 'ENOENT' || error.code === 'ECONNREFUSED') done(undefined);
      else fail(error);
    });
  });
}

async function backupStopped(dataDir: string, target: string): Promise<ControlAnswer> {
  const path = join(dataDir, DATABASE_FILE);
  // better-sqlite3's own message names no path ("the directory does not exist"): say which one, and the likely cause.
  if (!existsSync(path)) return { ok: false, error: `no database at ${path}: is DATA_DIR the service's data directory?` };
  // As the service's start does: opened and closed here, a damaged WAL was deleted with the writes it held.
  refuseDamagedWal(path);
  const db = new Database(path, { fileMustExist: true, timeout: 0 });
  try {
    return { ok: true, ...(await backupDataDir(db, dataDir, target)) };
  } finally {
    db.close();
  }
}

const [targetArgument] = process.argv.slice(2);
if (!targetArgument) {
  console.error('usage: npm run backup -- <target directory>   (backs up DATA_DIR, default ./data)');
  process.exit(1);
}
const dataDir = resolve(process.env.DATA_DIR ?? './data');
const target = resolve(targetArgument);
try {
  const answer = (await askService(dataDir, target)) ?? (await backupStopped(dataDir, target));
  if (!answer.ok) throw new Error(answer.error);
  console.log(`backed up ${dataDir} into ${target}: ${answer.files.join(', ')} (${answer.pages} database pages)`);
} catch (error) {
  console.error(`backup failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
