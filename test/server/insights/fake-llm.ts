/**
 * A local stand-in for an OpenAI-compatible chat-completions server, on 127.0.0.1 and a free
 * port. It records every request (headers and parsed body) and answers as the test says.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type FakeBehaviour =
  /** A valid answer whose content is `content` (an object, serialised as the model would). */
  | { kind: 'answer'; content: unknown; delayMs?: number }
  /** A 200 whose message content is this raw string (not JSON, say). */
  | { kind: 'raw-content'; content: string }
  /** Waits longer than any test timeout before answering well. */
  | { kind: 'slow'; delayMs: number; content: unknown }
  | { kind: 'status'; status: number; body?: string };

export interface RecordedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: {
    model: string;
    temperature: number;
    response_format: { type: string };
    messages: Array<{ role: string; content: string }>;
  };
}

export interface FakeLlm {
  baseUrl: string;
  requests: RecordedRequest[];
  behave(behaviour: FakeBehaviour): void;
  close(): Promise<void>;
}

function completion(content: string) {
  return JSON.stringify({
    id: 'chatcmpl-test',
    object: 'chat.completion',
    created: 1736900000,
    model: 'fake-model',
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
  });
}

export async function startFakeLlm(initial: FakeBehaviour): Promise<FakeLlm> {
  let behaviour = initial;
  const requests: RecordedRequest[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const later = (ms: number, fn: () => void) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      fn();
    }, ms);
    timers.add(timer);
  };

  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
    req.on('end', () => {
      requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: JSON.parse(raw) });
      const send = (status: number, body: string) => {
        if (res.destroyed) return;
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(body);
      };
      const b = behaviour;
      switch (b.kind) {
        case 'answer':
          return later(b.delayMs ?? 0, () => send(200, completion(JSON.stringify(b.content))));
        case 'raw-content':
          return send(200, completion(b.content));
        case 'slow':
          return later(b.delayMs, () => send(200, completion(JSON.stringify(b.content))));
        case 'status':
          return send(b.status, b.body ?? JSON.stringify({ error: { message: 'internal error', type: 'server_error' } }));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    behave(next) {
      behaviour = next;
    },
    async close() {
      for (const timer of timers) clearTimeout(timer);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A well-formed answer whose words claim the opposite of a falling series: the verdict must not follow it. */
export const CONTRARIAN_ANSWER = {
  summary: 'El colón se depreció con fuerza en el período según el modelo de prueba.',
  causes: ['Causa de prueba escrita por el modelo falso número uno.', 'Causa de prueba escrita por el modelo falso número dos.'],
  verdict: 'depreciation',
};
