/** The warm-up before listening: a few requests through the app on a private port. */
import type http from 'node:http';
import { Writable } from 'node:stream';
import pino from 'pino';
import { createApp } from '../../../server/app';
import { rehearse, WARM_UP_REQUEST_ID } from '../../../server/http/rehearsal';
import { createTestDatabase, type TestDatabase } from '../../helpers/database';

/** A logger whose JSON lines are kept, parsed. */
function capturingLogger(level: pino.Level = 'info') {
  const lines: Array<Record<string, unknown>> = [];
  const logger = pino(
    { level },
    new Writable({
      write(chunk: Buffer, _encoding, callback) {
        lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
        callback();
      },
    }),
  );
  return { logger, lines };
}

it('asks each path once, in turn, with the warm-up request id, and closes its port', async () => {
  const asked: Array<{ url?: string; id?: string | string[] }> = [];
  let port = 0;
  const callback: http.RequestListener = (request, response) => {
    asked.push({ url: request.url, id: request.headers['x-request-id'] });
    port = request.socket.localPort ?? 0;
    response.end('ok');
  };
  const { logger, lines } = capturingLogger('debug');
  await rehearse(callback, ['/a', '/b?x=1'], logger);
  expect(asked).toEqual([
    { url: '/a', id: WARM_UP_REQUEST_ID },
    { url: '/b?x=1', id: WARM_UP_REQUEST_ID },
  ]);
  expect(lines).toEqual([]);
  // Nothing listens there any more.
  await expect(fetch(`http://127.0.0.1:${port}/a`)).rejects.toThrow();
});

it('logs a request that fails and goes on with the next one', async () => {
  const asked: string[] = [];
  const callback: http.RequestListener = (request, response) => {
    asked.push(request.url ?? '');
    if (request.url === '/broken') request.socket.destroy();
    else response.end('ok');
  };
  const { logger, lines } = capturingLogger('debug');
  await rehearse(callback, ['/broken', '/fine'], logger);
  expect(asked).toEqual(['/broken', '/fine']);
  expect(lines).toEqual([expect.objectContaining({ level: 20, msg: 'warm-up request failed', path: '/broken' })]);
});

describe("the app's warm-up", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database.drop();
  });

  it('runs the liveness and a keyed route before listening, each once, said in the access log', async () => {
    const { logger, lines } = capturingLogger();
    const app = createApp({ db: database.db, logger });
    await app.warmUp();
    const requests = lines.filter((line) => line.msg === 'request');
    expect(requests).toEqual([
      expect.objectContaining({ requestId: WARM_UP_REQUEST_ID, path: '/livez', status: 200 }),
      // A key no one holds: the keyed path as far as the key lookup.
      expect.objectContaining({ requestId: WARM_UP_REQUEST_ID, path: '/api/v1/exchange-rate/latest', status: 401 }),
    ]);
    await app.release();
  });
});
