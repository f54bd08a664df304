/** The real API in a worker thread (see server-main.ts), and synchronous calls into it. */
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { callSync, type FetchReply } from './sync-channel';

export interface ApiServer {
  /** `http://127.0.0.1:PORT/api/v1` */
  api: string;
  keys: { main: string; tiny: string; revocable: string; slow: string; once: string };
  /** Real HTTP requests made by the worker, answered synchronously. */
  fetch(requests: Array<{ url: string; headers: Record<string, string> }>): FetchReply[];
  /** Revokes the `revocable` key in the server's database. */
  revoke(): void;
  /** Stops the server: its address refuses connections from then on (fetch still answers, with that refusal). */
  stop(): void;
  /** Stops the server and its worker; a second call does nothing. */
  close(): Promise<void>;
}

export async function startApiServer(): Promise<ApiServer> {
  const worker = new Worker(path.join(__dirname, 'server-worker.cjs'));
  const ready = await new Promise<{ api: string; keys: ApiServer['keys'] }>((resolve, reject) => {
    worker.once('error', reject);
    worker.once('message', (message: { type: string; error?: string; api: string; keys: ApiServer['keys'] }) => {
      if (message.type === 'ready') resolve(message);
      else reject(new Error(`API server worker failed: ${message.error}`));
    });
  });
  let closed = false;
  const stop = () => void callSync<boolean>(worker, { type: 'stop' });
  return {
    api: ready.api,
    keys: ready.keys,
    fetch: (requests) => callSync<FetchReply[]>(worker, { type: 'fetch', requests }),
    revoke: () => void callSync<boolean>(worker, { type: 'revoke' }),
    stop,
    async close() {
      if (closed) return;
      closed = true;
      stop();
      await worker.terminate();
    },
  };
}
