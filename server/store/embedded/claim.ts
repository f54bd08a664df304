/**
 * The embedded database's files belong to one process: two PGlite instances on one folder hang,
 * abort, and can corrupt it. A process claims the folder before it opens PGlite, atomically: the
 * lock file appears with its content in one step (a hard link of a file already written), so a
 * second process either sees a complete claim or none. A claim whose process is gone is taken
 * over; `serves` tells others whether the holder shares the database on its socket.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export const LOCK_FILE = 'crc-rates.lock';

export interface Holder {
  pid: number;
  /** The holder serves the database on its socket (a running server), so others can connect. */
  serves: boolean;
}

export class DataDirInUseError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holder: Holder,
    /** The refused process would have served too: a second server, which never shares a folder. */
    readonly askerServes: boolean,
  ) {
    super(DataDirInUseError.explain(dataDir, holder, askerServes));
    this.name = 'DataDirInUseError';
  }

  /**
   * What the refused process is told. A command reaches a running server through its socket, so
   * it is refused a server's folder only when that socket does not answer; a second server is
   * refused a healthy one's at once, and the way out is PostgreSQL, not waiting.
   */
  private static explain(dataDir: string, holder: Holder, askerServes: boolean): string {
    if (holder.serves && askerServes) {
      return `Another crc-rates server (process ${holder.pid}) is using DATA_DIR ${dataDir}; stop it first, or set DATABASE_URL to a PostgreSQL server to run several servers.`;
    }
    if (holder.serves) {
      return `The embedded database in ${dataDir} belongs to the server running as process ${holder.pid}, which is not answering on its socket. Try again once it has started, or stop it.`;
    }
    return `The embedded database in ${dataDir} is in use by process ${holder.pid} (another command). Try again when it has finished, or set DATABASE_URL to share a PostgreSQL server between processes.`;
  }
}

export interface Claim {
  /** Gives the folder back (only if the lock file is still this claim's). */
  release(): void;
}

const lockPath = (dataDir: string) => path.join(dataDir, LOCK_FILE);

/**
 * The folders this process holds. A lock file naming this process but not listed here is a
 * previous process's that had the same pid (common in containers) and is stale.
 */
const claimedHere = new Set<string>();

function parseHolder(text: string): Holder | null {
  try {
    const value = JSON.parse(text) as Partial<Holder>;
    return typeof value.pid === 'number' && Number.isInteger(value.pid) && value.pid > 0 ? { pid: value.pid, serves: value.serves === true } : null;
  } catch {
    // Not ours, or damaged: no holder can be read from it (and treated as stale by the caller).
    return null;
  }
}

function readText(file: string): string | null {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/** Who holds the folder now, if a live process does. */
export function readHolder(dataDir: string): Holder | null {
  const text = readText(lockPath(dataDir));
  const holder = text === null ? null : parseHolder(text);
  return holder && isLive(lockPath(dataDir), holder) ? holder : null;
}

function isLive(file: string, holder: Holder): boolean {
  return holder.pid === process.pid ? claimedHere.has(file) : isAlive(holder.pid);
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Creates the lock file with its content in one step; false if one is there already. */
function createLock(file: string, content: string): boolean {
  const draft = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  fs.writeFileSync(draft, content, { mode: 0o600 });
  try {
    fs.linkSync(draft, file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    fs.rmSync(draft, { force: true });
  }
}

/**
 * Moves a stale lock out of the way. Renaming is atomic, so of two processes taking over the same
 * stale lock only one moves it; if what was moved turns out to be a fresh claim (another process
 * took over first), it is put back.
 */
function removeStale(file: string, staleText: string): void {
  const aside = `${file}.stale.${process.pid}.${randomBytes(4).toString('hex')}`;
  try {
    fs.renameSync(file, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  if (readText(aside) !== staleText) {
    try {
      fs.linkSync(aside, file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  fs.rmSync(aside, { force: true });
}

export function claimDataDir(dataDir: string, serves: boolean): Claim {
  fs.mkdirSync(dataDir, { recursive: true });
  const file = lockPath(dataDir);
  const content = JSON.stringify({ pid: process.pid, serves } satisfies Holder);
  for (let attempt = 0; attempt < 5; attempt++) {
    if (createLock(file, content)) {
      claimedHere.add(file);
      return {
        release() {
          claimedHere.delete(file);
          if (readText(file) === content) fs.rmSync(file, { force: true });
        },
      };
    }
    const text = readText(file);
    if (text === null) continue; // given back in between: try again
    const holder = parseHolder(text);
    if (holder && isLive(file, holder)) throw new DataDirInUseError(dataDir, holder, serves);
    removeStale(file, text);
  }
  const holder = readHolder(dataDir);
  throw new DataDirInUseError(dataDir, holder ?? { pid: 0, serves: false }, serves);
}
