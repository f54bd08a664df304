/**
 * A local HTTP server that answers from a script, for the SDK's transport tests: what the real
 * server cannot be made to do on demand (answer 429 then 200 a second later, never answer,
 * stall in the middle of a body, send a proxy's HTML page).
 */
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { ExchangeRateError } from '../../sdk/src';

export interface StubRequest {
  url: string;
  headers: http.IncomingHttpHeaders;
}

/** One scripted answer; `hang` never answers, `stallBody` sends the head and part of a body, then nothing. */
export type StubAnswer = { status: number; body?: unknown; text?: string; headers?: Record<string, string> } | { hang: true } | { stallBody: true };

export interface Stub {
  /** The base URL, as a client's `baseUrl` (`http://127.0.0.1:PORT/api/v1`). */
  api: string;
  requests: StubRequest[];
  close(): Promise<void>;
}

/** Answers the n-th request with `answers[n]`, and every later one with the last. */
export async function startStub(answers: readonly StubAnswer[]): Promise<Stub> {
  const requests: StubRequest[] = [];
  const server = http.createServer((req, res) => {
    requests.push({ url: req.url ?? '', headers: req.headers });
    const answer = answers[Math.min(requests.length - 1, answers.length - 1)];
    if (!answer || 'hang' in answer) return;
    if ('stallBody' in answer) {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
      res.write('{"success":true,"data":');
      return;
    }
    const text = answer.text ?? JSON.stringify(answer.body ?? null);
    res.writeHead(answer.status, { 'content-type': answer.text === undefined ? 'application/json' : 'text/html', ...answer.headers });
    res.end(text);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    api: `http://127.0.0.1:${port}/api/v1`,
    requests,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A port nothing listens on (it was free a moment ago): connections to it are refused. */
export function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export const ok = (data: unknown, headers: Record<string, string> = {}): StubAnswer => ({ status: 200, body: { success: true, data }, headers });
export const failure = (status: number, error: string, message: string, headers: Record<string, string> = {}): StubAnswer => ({
  status,
  body: { success: false, error, message },
  headers,
});

/** A record as the API writes it, for the stubs' answers. */
export const RECORD = {
  date: '2025-01-15',
  currencyFrom: 'USD',
  currencyTo: 'CRC',
  buy: 506.47,
  sell: 512.82,
  source: 'BCCR',
  fetchedAt: '2025-01-14T18:05:12.000Z',
};

/** Starts stubs for a test file's tests, each closed after the test that started it. */
export function stubsOfEachTest(): (answers: readonly StubAnswer[]) => Promise<Stub> {
  const stubs: Stub[] = [];
  afterEach(async () => {
    await Promise.all(stubs.splice(0).map((s) => s.close()));
  });
  return async (answers) => {
    const s = await startStub(answers);
    stubs.push(s);
    return s;
  };
}

/** The error a call that must fail rejects with. */
export async function rejection(promise: Promise<unknown>): Promise<ExchangeRateError> {
  const error = await promise.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ExchangeRateError);
  return error as ExchangeRateError;
}

/** A sleep that records what it was asked to wait and returns at once. */
export function fakeSleep(): { sleep: (ms: number) => Promise<void>; waits: number[] } {
  const waits: number[] = [];
  return { waits, sleep: async (ms) => void waits.push(ms) };
}
