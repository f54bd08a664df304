/**
 * A load at a fixed offered rate, open loop: request i is due at start + i / rate, whether or not
 * the earlier ones were answered, as independent clients arrive. autocannon's `overallRate` is not
 * that: each connection sends its share of a second back to back when the second starts, then
 * waits, so a whole second's requests arrive in one burst and the latency measured is a burst's.
 *
 * Each latency counts from the request's due time, not from when a connection was free to send it
 * (a server that falls behind is charged for the queue it makes, which is what a client sees).
 */
import http from 'node:http';

export interface OpenLoopRequest {
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
}

export interface OpenLoopResult {
  /** Milliseconds from each request's due time to its answer's end. */
  latencies: number[];
  /** Answers by status code. */
  statusCodes: Record<string, number>;
  errors: number;
  /** Seconds from the first due time to the last answer. */
  durationS: number;
}

/** How often the due requests are sent: often enough that a burst is a millisecond's share. */
const TICK_MS = 1;

/**
 * Offers `rate` requests per second for `durationS` seconds over at most `connections` kept-alive
 * connections (a request due while all are busy waits for one, and that wait counts).
 */
export async function openLoop(origin: string, rate: number, durationS: number, connections: number, next: () => OpenLoopRequest): Promise<OpenLoopResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const total = Math.round(rate * durationS);
  const latencies: number[] = [];
  const statusCodes: Record<string, number> = {};
  let errors = 0;
  let sent = 0;
  let settled = 0;
  const start = performance.now();
  let lastAnswer = start;

  await new Promise<void>((resolve) => {
    const settle = (due: number) => {
      lastAnswer = performance.now();
      latencies.push(lastAnswer - due);
      if (++settled === total) resolve();
    };
    const send = (due: number) => {
      const request = next();
      let answered = false;
      const req = http.request(new URL(request.path, origin), { method: request.method, headers: request.headers, agent }, (res) => {
        statusCodes[String(res.statusCode)] = (statusCodes[String(res.statusCode)] ?? 0) + 1;
        res.resume();
        res.on('end', () => {
          answered = true;
          settle(due);
        });
      });
      // A request that fails before or while its answer arrives counts once, as an error.
      req.on('error', () => {
        if (answered) return;
        answered = true;
        errors++;
        settle(due);
      });
      req.end(request.body);
    };
    const timer = setInterval(() => {
      const elapsedS = (performance.now() - start) / 1000;
      const due = Math.min(total, Math.floor(elapsedS * rate) + 1);
      for (; sent < due; sent++) send(start + (sent / rate) * 1000);
      if (sent === total) clearInterval(timer);
    }, TICK_MS);
  });
  agent.destroy();
  return { latencies, statusCodes, errors, durationS: (lastAnswer - start) / 1000 };
}
