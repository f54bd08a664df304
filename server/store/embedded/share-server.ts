/**
 * The running server shares its embedded database with the operator's commands (`npm run keys`,
 * `npm run sync`) on a Unix socket in the data folder, instead of their opening the files too.
 * Each client speaks the ordinary PostgreSQL protocol (node-postgres); what it sends is handed to
 * this process's PGlite while the client holds the session lock, from its first statement until
 * the session is idle again, so a client's transaction is never interleaved with the server's or
 * another client's. pglite-socket's server was not used: it keeps its own clients apart, but not
 * from the in-process queries that run between its statements (see ./session-lock.ts).
 *
 * A client that keeps the lock without a word (mid-transaction) for IDLE_IN_TRANSACTION_MS is
 * rolled back and disconnected, so a stuck command cannot stop the server's requests for long.
 */
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { createBackendScanner, createFrontendReader, endsUnit, type FrontendMessage, SYNC } from './protocol';
import type { Release, SessionLock } from './session-lock';

/** The file name libpq and node-postgres look for in a socket directory (port 5432). */
export const SOCKET_NAME = '.s.PGSQL.5432';
export const SOCKET_PORT = 5432;
const IDLE_IN_TRANSACTION_MS = 10_000;
/** How long a client waits for the server's own work (a sync's transaction) before it is cut off. */
const LOCK_WAIT_MS = 60_000;
/** Unix socket paths are limited (108 bytes on Linux, 104 on macOS, counting the terminating NUL). */
const MAX_SOCKET_PATH = 103;

export interface ShareLogger {
  warn(obj: object, msg: string): void;
  debug(obj: object, msg: string): void;
}

export interface EmbeddedShare {
  readonly socketPath: string;
  /** Stops accepting, disconnects the clients (rolling back what they left open) and removes the socket. */
  close(): Promise<void>;
}

export interface ShareOptions {
  pglite: PGlite;
  lock: SessionLock;
  dataDir: string;
  logger: ShareLogger;
  /** A NOTIFY a client's statement raised (the session LISTENs to the channels this process wants). */
  onNotification(channel: string, payload: string): void;
}

export function socketPathOf(dataDir: string): string {
  return path.join(path.resolve(dataDir), SOCKET_NAME);
}

export class SocketPathTooLongError extends Error {}

export async function serveEmbedded(options: ShareOptions): Promise<EmbeddedShare> {
  const socketPath = socketPathOf(options.dataDir);
  if (Buffer.byteLength(socketPath) > MAX_SOCKET_PATH) {
    throw new SocketPathTooLongError(`${socketPath} is too long for a Unix socket; use a shorter DATA_DIR to share the embedded database`);
  }
  // Whoever claimed the folder owns the socket: one left here is a crashed server's.
  fs.rmSync(socketPath, { force: true });
  const sessions = new Set<ClientSession>();
  const server = net.createServer((socket) => {
    const session = new ClientSession(socket, options, () => sessions.delete(session));
    sessions.add(session);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => {
      server.off('error', reject);
      resolve();
    });
  });
  // Only this user: the socket is the whole database, with no password in front of it.
  fs.chmodSync(socketPath, 0o600);
  server.on('error', (error: Error) => options.logger.warn({ err: error }, 'embedded database socket: error'));

  return {
    socketPath,
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      await Promise.all([...sessions].map((session) => session.end()));
      await closed;
      fs.rmSync(socketPath, { force: true });
    },
  };
}

/** One client connection: its messages, run a unit at a time, in order. */
class ClientSession {
  private readonly read = createFrontendReader();
  private readonly scan;
  private pending: FrontendMessage[] = [];
  /** The units of this client, one after the other; the clean-up is the last link. */
  private queue: Promise<void> = Promise.resolve();
  private release: Release | null = null;
  private idle = true;
  private idleTimer: NodeJS.Timeout | null = null;
  private ended = false;

  constructor(
    private readonly socket: net.Socket,
    private readonly options: ShareOptions,
    private readonly onEnd: () => void,
  ) {
    this.scan = createBackendScanner({
      onReady: (status) => {
        this.idle = status === 'I';
      },
      onNotification: (channel, payload) => options.onNotification(channel, payload),
    });
    socket.on('data', (chunk: Buffer) => this.receive(chunk));
    socket.on('error', (error: Error) => options.logger.debug({ err: error.message }, 'embedded database socket: client connection error'));
    socket.on('close', () => void this.end());
  }

  private receive(chunk: Buffer): void {
    for (const message of this.read(chunk)) {
      this.pending.push(message);
      if (endsUnit(message)) {
        const unit = this.pending;
        this.pending = [];
        this.queue = this.queue.then(() => this.run(unit));
      }
    }
  }

  private async run(unit: FrontendMessage[]): Promise<void> {
    if (this.ended) return;
    this.stopIdleTimer();
    try {
      for (const message of unit) {
        if (message.kind === 'encryption-request') {
          this.socket.write('N');
          continue;
        }
        if (message.kind === 'cancel-request' || (message.kind === 'message' && message.type === 'X')) {
          this.socket.end();
          return;
        }
        this.release ??= await this.options.lock.acquire(LOCK_WAIT_MS);
        this.idle = false;
        const { pglite } = this.options;
        await pglite.runExclusive(() =>
          pglite.execProtocolRawStream(message.bytes, {
            onRawData: (data: Uint8Array) => {
              const copy = Buffer.from(data);
              this.scan(copy);
              if (this.socket.writable) this.socket.write(copy);
            },
          }),
        );
      }
    } catch (error) {
      this.options.logger.warn({ err: error }, 'embedded database socket: a client request failed; disconnecting it');
      this.socket.destroy();
      return;
    }
    if (this.idle) this.giveBack();
    else if (this.release) this.startIdleTimer();
  }

  private giveBack(): void {
    this.release?.();
    this.release = null;
  }

  private startIdleTimer(): void {
    this.idleTimer = setTimeout(() => {
      this.options.logger.warn({ idleMs: IDLE_IN_TRANSACTION_MS }, 'embedded database socket: a client left its transaction idle; rolling it back');
      this.socket.destroy();
    }, IDLE_IN_TRANSACTION_MS);
    this.idleTimer.unref();
  }

  private stopIdleTimer(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
  }

  /** Disconnects, and leaves the session as the next user expects it: outside any transaction. */
  end(): Promise<void> {
    if (!this.ended) {
      this.ended = true;
      this.socket.destroy();
      this.queue = this.queue.then(() => this.cleanUp());
    }
    return this.queue;
  }

  private async cleanUp(): Promise<void> {
    this.stopIdleTimer();
    try {
      if (this.release) {
        const { pglite } = this.options;
        // Ends a half-sent extended-protocol exchange, then undoes an open transaction.
        await pglite.runExclusive(() => pglite.execProtocolRaw(SYNC));
        if (pglite.isInTransaction()) await pglite.exec('ROLLBACK');
      }
    } catch (error) {
      this.options.logger.warn({ err: error }, 'embedded database socket: could not roll back a disconnected client');
    } finally {
      this.giveBack();
      this.onEnd();
    }
  }
}
