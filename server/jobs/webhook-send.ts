/**
 * One delivery attempt: a POST of the event's body, signed, to an address checked as it is
 * connected to (webhook-target.ts). At most 10 s; redirects are not followed (a 3xx is a failed
 * attempt); at most 1 KB of the answer is read and kept.
 */
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { RESPONSE_BYTES_KEPT, type AttemptOutcome } from '../store/webhooks';
import { checkedLookup, hostOf, parseTarget, resolveTarget, type TargetPolicy, TargetRefused } from './webhook-target';

export const DELIVERY_TIMEOUT_MS = 10_000;

export async function sendWebhook(
  rawUrl: string,
  headers: Record<string, string>,
  body: string,
  policy: TargetPolicy,
  timeoutMs = DELIVERY_TIMEOUT_MS,
): Promise<AttemptOutcome> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  let url: URL;
  try {
    url = parseTarget(rawUrl, policy);
    // A literal address is never looked up: checked here instead.
    if (isIP(hostOf(url))) await resolveTarget(hostOf(url), policy);
  } catch (error) {
    if (error instanceof TargetRefused) return { status: null, latencyMs: null, error: `refused: the URL ${error.message}`, response: null };
    throw error;
  }
  const client = url.protocol === 'https:' ? https : http;
  return new Promise<AttemptOutcome>((resolve) => {
    let settled = false;
    const finish = (outcome: AttemptOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    const request = client.request(
      url,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'user-agent': 'crc-rates-webhooks', 'content-length': Buffer.byteLength(body), ...headers },
        lookup: checkedLookup(policy),
        // A fresh connection per attempt: a kept-alive socket would skip the address check.
        agent: false,
      },
      (response) => {
        const chunks: Buffer[] = [];
        let kept = 0;
        const done = () => {
          const status = response.statusCode ?? 0;
          const text = Buffer.concat(chunks).subarray(0, RESPONSE_BYTES_KEPT).toString('utf8');
          finish({ status, latencyMs: elapsed(), error: status >= 200 && status < 300 ? null : `answered HTTP ${status}`, response: text });
          response.destroy();
        };
        response.on('data', (chunk: Buffer) => {
          if (kept < RESPONSE_BYTES_KEPT) {
            chunks.push(chunk);
            kept += chunk.length;
          }
          if (kept >= RESPONSE_BYTES_KEPT) done();
        });
        response.on('end', done);
        response.on('error', done);
      },
    );
    const timer = setTimeout(() => {
      finish({ status: null, latencyMs: elapsed(), error: `no answer within ${timeoutMs / 1000} s`, response: null });
      request.destroy();
    }, timeoutMs);
    request.on('error', (error: NodeJS.ErrnoException) => {
      const reason = error.code === 'EWEBHOOKREFUSED' ? `refused: the URL ${error.message}` : `could not connect: ${error.code ?? error.message}`;
      finish({ status: null, latencyMs: elapsed(), error: reason, response: null });
    });
    request.end(body);
  });
}
