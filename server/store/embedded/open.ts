/**
 * Opening the embedded database from a command or the server: the process that claims the data
 * folder opens PGlite itself (the owner); one that finds it held by a running server connects to
 * the socket that server shares it on (a client), waiting a while for a server that is still
 * starting. Any other holder (another command) is refused with DataDirInUseError.
 */
import net from 'node:net';
import path from 'node:path';
import { connectEmbeddedServer, createDatabase, type Database, DEADLINES, embeddedHandle } from '../database';
import { DataDirInUseError } from './claim';
import { type EmbeddedShare, type ShareLogger, SOCKET_PORT, serveEmbedded, socketPathOf } from './share-server';

/** A server opens PGlite, migrates and starts its socket within seconds; on a slow first start (initdb), longer. */
const WAIT_FOR_SERVER_MS = 20_000;
const POLL_MS = 100;

export type EmbeddedDatabase = { role: 'owner'; db: Database } | { role: 'client'; db: Database };

export interface OpenOptions {
  /** This process will share the database on a socket (the server). */
  serves: boolean;
  logger: ShareLogger & { error(obj: object, msg: string): void };
  waitMs?: number;
}

export async function openEmbedded(dataDir: string, options: OpenOptions): Promise<EmbeddedDatabase> {
  const deadline = Date.now() + (options.waitMs ?? WAIT_FOR_SERVER_MS);
  for (;;) {
    try {
      return { role: 'owner', db: createDatabase({ databaseUrl: null, dataDir, serves: options.serves, logger: options.logger }) };
    } catch (error) {
      // A server never shares another server's database: two servers on one folder is a mistake.
      if (!(error instanceof DataDirInUseError) || !error.holder.serves || options.serves) throw error;
      if (await answers(socketPathOf(dataDir))) {
        return { role: 'client', db: connectEmbeddedServer(path.resolve(dataDir), SOCKET_PORT, { deadlines: DEADLINES.work, logger: options.logger }) };
      }
      if (Date.now() >= deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }
}

/** Starts sharing an owned embedded database on its folder's socket. */
export function shareEmbedded(db: Database, logger: ShareLogger, onNotification: (channel: string, payload: string) => void): Promise<EmbeddedShare> {
  const handle = embeddedHandle(db);
  if (!handle?.dataDir) throw new Error('only an embedded database kept in a folder can be shared');
  return serveEmbedded({ pglite: handle.pglite, lock: handle.lock, dataDir: handle.dataDir, logger, onNotification });
}

function answers(socketPath: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(socketPath);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    // Not there (yet), or refused: the caller waits and asks again.
    socket.once('error', () => resolve(false));
  });
}
