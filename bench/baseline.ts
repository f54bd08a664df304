/**
 * The baselines: a bare Koa server that does no work. `/` answers a constant JSON body the size of
 * `/exchange-rate/latest`'s. `/replay/N` answers the N-th recorded answer of the real server
 * byte for byte (its headers and body, written in one `writeHead`): the same bytes on the wire
 * for the client to read, so the ratio against it is what our work costs, not what the answer
 * weighs. The recorded answers come as JSON on stdin.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { ENCODED_ABOVE_CHARS } from '../server/http/response-cache';

export interface RecordedAnswer {
  status: number;
  /** Name, value, name, value… */
  headers: string[];
  body: string;
}

const constant = JSON.stringify({
  success: true,
  data: { date: '2025-01-15', currencyFrom: 'USD', currencyTo: 'CRC', buy: 506.47, sell: 512.82, source: 'BCCR', fetchedAt: '2025-01-14T18:05:12.000Z' },
});

async function readStdin(): Promise<string> {
  let text = '';
  for await (const chunk of process.stdin) text += String(chunk);
  return text;
}

async function main(): Promise<void> {
  // Written the way the server writes its cached answers: long ones already encoded, short ones
  // as text that Node sends in one write with the headers.
  const answers = (JSON.parse((await readStdin()) || '[]') as RecordedAnswer[]).map((answer) => ({
    ...answer,
    body: answer.body.length > ENCODED_ABOVE_CHARS ? Buffer.from(answer.body) : answer.body,
  }));
  const app = new Koa();
  app.use((ctx) => {
    const replay = /^\/replay\/(\d+)$/.exec(ctx.path);
    const answer = replay ? answers[Number(replay[1])] : undefined;
    if (!answer) {
      ctx.type = 'application/json; charset=utf-8';
      ctx.body = constant;
      return;
    }
    ctx.respond = false;
    ctx.res.writeHead(answer.status, answer.headers);
    ctx.res.end(answer.body);
  });
  const server = http.createServer(app.callback());
  server.keepAliveTimeout = 65_000;
  server.listen(0, '127.0.0.1', () => process.stdout.write(`${JSON.stringify({ port: (server.address() as AddressInfo).port })}\n`));
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
