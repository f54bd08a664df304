/**
 * A synchronous call from the main thread into a worker: the main thread posts a request with a
 * SharedArrayBuffer and blocks in Atomics.wait; the worker writes its JSON reply into the buffer
 * and wakes it. Layout: Int32 state (0 waiting, 1 answered), Int32 byte length, then UTF-8 JSON.
 */
import type { Worker } from 'node:worker_threads';

const BYTES = 8 * 1024 * 1024;
const HEADER = 8;

export type FetchReply = { status: number; headers: Record<string, string>; body: string } | { error: string };

export type WorkerRequest =
  | { type: 'fetch'; buffer: SharedArrayBuffer; requests: Array<{ url: string; headers: Record<string, string> }> }
  | { type: 'revoke'; buffer: SharedArrayBuffer }
  | { type: 'stop'; buffer: SharedArrayBuffer };

type Payload<T> = T extends { type: infer _; buffer: SharedArrayBuffer } ? Omit<T, 'buffer'> : never;

export function writeReply(buffer: SharedArrayBuffer, value: unknown): void {
  const bytes = new TextEncoder().encode(JSON.stringify(value ?? null));
  const state = new Int32Array(buffer, 0, 2);
  if (bytes.length > BYTES - HEADER) throw new Error(`reply of ${bytes.length} bytes is too large`);
  new Uint8Array(buffer, HEADER, bytes.length).set(bytes);
  Atomics.store(state, 1, bytes.length);
  Atomics.store(state, 0, 1);
  Atomics.notify(state, 0);
}

const buffers = new WeakMap<Worker, SharedArrayBuffer>();

/** Sends `request` and blocks until the worker answers (or `timeoutMs` passes). */
export function callSync<T>(worker: Worker, request: Payload<WorkerRequest>, timeoutMs = 20_000): T {
  let buffer = buffers.get(worker);
  if (!buffer) {
    buffer = new SharedArrayBuffer(BYTES);
    buffers.set(worker, buffer);
  }
  const state = new Int32Array(buffer, 0, 2);
  Atomics.store(state, 0, 0);
  worker.postMessage({ ...request, buffer });
  if (Atomics.wait(state, 0, 0, timeoutMs) === 'timed-out') throw new Error(`worker did not answer ${request.type} within ${timeoutMs} ms`);
  const length = Atomics.load(state, 1);
  const text = new TextDecoder().decode(new Uint8Array(buffer, HEADER, length).slice());
  const value = JSON.parse(text) as T & { workerError?: string };
  if (value && typeof value === 'object' && 'workerError' in value) throw new Error(value.workerError);
  return value;
}
