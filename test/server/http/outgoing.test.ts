/**
 * The headers an answer collects on its way through (`Outgoing`): names found in any case and never
 * confused with others of the same length, a header set again keeping its place; and the single
 * write at the end, over real HTTP: status, headers and body, a Content-Length in bytes, no body
 * for a 304 or a HEAD, and the collected headers handed to Koa when Koa answers itself.
 */
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import Koa, { type Context } from 'koa';
import { openOutgoing, Outgoing, outgoing } from '../../../server/http/outgoing';

describe('Outgoing headers', () => {
  it('finds a name in any case and replaces its value', () => {
    const out = new Outgoing();
    out.set('X-Request-Id', 'first');
    out.set('x-request-id', 'second');
    expect(out.get('X-REQUEST-ID')).toBe('second');
    expect(out.get('x-request-id')).toBe('second');
    out.remove('X-REQUEST-id');
    expect(out.get('X-Request-Id')).toBeUndefined();
  });

  it('does not confuse names of the same length', () => {
    const out = new Outgoing();
    out.set('X-Quota-Limit', '1000');
    out.set('X-RateLimit-Limit', '60');
    expect(out.get('Cache-Control')).toBeUndefined();
    expect(out.get('X-Quota-Remaining')).toBeUndefined();
    out.set('Cache-Control', 'no-store');
    out.set('X-Quota-Remaining', '999');
    expect([out.get('X-Quota-Limit'), out.get('Cache-Control'), out.get('X-RateLimit-Limit'), out.get('X-Quota-Remaining')]).toEqual([
      '1000',
      'no-store',
      '60',
      '999',
    ]);
    // Only letters fold: '^' and '~' differ by the same bit as 'A' and 'a'.
    out.set('X-A^B', 'caret');
    expect(out.get('X-A~B')).toBeUndefined();
    out.remove('Cache-Control');
    expect(out.get('X-Quota-Limit')).toBe('1000');
    expect(out.get('X-Quota-Remaining')).toBe('999');
  });

  it('sets several at once, replacing those already there', () => {
    const out = new Outgoing();
    out.set('X-Frame-Options', 'SAMEORIGIN');
    out.setAll({ 'x-frame-options': 'DENY', 'Referrer-Policy': 'no-referrer' });
    expect(out.get('X-Frame-Options')).toBe('DENY');
    expect(out.get('referrer-policy')).toBe('no-referrer');
  });
});

describe('Outgoing write', () => {
  let server: http.Server | null = null;
  afterEach(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
    server = null;
  });

  /** A Koa app whose outermost layer opens the answer and flushes it, as the lifecycle does. */
  async function serve(answer: (ctx: Context, out: Outgoing) => void): Promise<number> {
    const app = new Koa();
    app.use(async (ctx, next) => {
      const out = openOutgoing(ctx);
      await next();
      out.flush(ctx);
    });
    app.use((ctx) => answer(ctx, outgoing(ctx)));
    const listening = http.createServer(app.callback());
    server = listening;
    await new Promise<void>((resolve) => listening.listen(0, '127.0.0.1', resolve));
    return (listening.address() as AddressInfo).port;
  }

  /** The exact bytes of an answer, read until the server closes: what fetch would hide after the headers. */
  function exchange(port: number, method: string): Promise<{ head: string; rest: Buffer }> {
    return new Promise((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1');
      const chunks: Buffer[] = [];
      socket.on('data', (chunk: Buffer) => chunks.push(chunk));
      socket.on('error', reject);
      socket.on('end', () => {
        const all = Buffer.concat(chunks);
        const end = all.indexOf('\r\n\r\n');
        resolve({ head: all.subarray(0, end).toString('latin1'), rest: all.subarray(end + 4) });
      });
      socket.write(`${method} / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
    });
  }

  it('writes the status, the collected headers and the body', async () => {
    const port = await serve((ctx, out) => {
      out.set('X-Request-Id', 'abc');
      out.set('Cache-Control', 'public, max-age=60');
      out.send(ctx, 201, '{"a":1}');
    });
    const response = await fetch(`http://127.0.0.1:${port}/`);
    expect(response.status).toBe(201);
    expect(response.headers.get('x-request-id')).toBe('abc');
    expect(response.headers.get('cache-control')).toBe('public, max-age=60');
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(response.headers.get('content-length')).toBe('7');
    expect(await response.text()).toBe('{"a":1}');
  });

  it('keeps a header set again in its first place, once, under its first name', async () => {
    const port = await serve((ctx, out) => {
      out.set('X-Request-Id', 'first');
      out.set('Vary', 'Origin');
      out.set('Cache-Control', 'no-store');
      out.set('x-request-id', 'second');
      out.send(ctx, 200, '{}');
    });
    const { head } = await exchange(port, 'GET');
    const names = head.split('\r\n').slice(1).map((line) => line.slice(0, line.indexOf(':')));
    expect(names.slice(0, 3)).toEqual(['X-Request-Id', 'Vary', 'Cache-Control']);
    expect(head).toContain('\r\nX-Request-Id: second\r\n');
    expect(head.toLowerCase().split('x-request-id:')).toHaveLength(2);
  });

  it('sends one Content-Type and one Content-Length, keeping a type set on purpose and never a stale length', async () => {
    const port = await serve((ctx, out) => {
      out.set('content-type', 'application/problem+json');
      out.set('Content-Length', '999');
      out.send(ctx, 200, '{"a":1}');
    });
    const { head } = await exchange(port, 'GET');
    const lower = head.toLowerCase();
    expect(lower.split('content-type:')).toHaveLength(2);
    expect(lower.split('content-length:')).toHaveLength(2);
    expect(lower).toContain('\r\ncontent-type: application/problem+json\r\n');
    expect(lower).toContain('\r\ncontent-length: 7\r\n');
  });

  it('counts Content-Length in bytes, for text with non-ASCII characters and for a Buffer', async () => {
    const text = '{"a":"ñ"}';
    const encoded = Buffer.from('{"b":"ü€"}');
    const port = await serve((ctx, out) => out.send(ctx, 200, ctx.path === '/buffer' ? encoded : text));

    const fromText = await fetch(`http://127.0.0.1:${port}/text`);
    expect(fromText.headers.get('content-length')).toBe('10');
    expect(await fromText.text()).toBe(text);

    const fromBuffer = await fetch(`http://127.0.0.1:${port}/buffer`);
    expect(fromBuffer.headers.get('content-length')).toBe(String(encoded.length));
    expect(Buffer.from(await fromBuffer.arrayBuffer()).equals(encoded)).toBe(true);
  });

  it('answers a 304 with its headers and no body', async () => {
    const port = await serve((ctx, out) => {
      out.set('ETag', '"v1"');
      out.send(ctx, 304, null);
    });
    const response = await fetch(`http://127.0.0.1:${port}/`);
    expect(response.status).toBe(304);
    expect(response.headers.get('etag')).toBe('"v1"');
    expect(await response.text()).toBe('');

    const { head, rest } = await exchange(port, 'GET');
    expect(head).toMatch(/^HTTP\/1\.1 304 /);
    expect(rest.length).toBe(0);
  });

  it('answers HEAD with the headers of GET and no body', async () => {
    const port = await serve((ctx, out) => {
      out.set('X-Request-Id', 'abc');
      out.send(ctx, 200, '{"a":"ñ"}');
    });
    const { head, rest } = await exchange(port, 'HEAD');
    expect(head).toMatch(/^HTTP\/1\.1 200 /);
    expect(head).toContain('\r\nX-Request-Id: abc\r\n');
    expect(head).toContain('\r\nContent-Length: 10\r\n');
    expect(head).toContain('\r\nContent-Type: application/json; charset=utf-8');
    expect(rest.length).toBe(0);
  });

  it('hands the collected headers to Koa when Koa answers, adding to its Vary', async () => {
    const port = await serve((ctx, out) => {
      out.set('X-Request-Id', 'abc');
      out.set('Vary', 'Origin');
      ctx.vary('Accept');
      ctx.body = 'text';
    });
    const response = await fetch(`http://127.0.0.1:${port}/`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(response.headers.get('x-request-id')).toBe('abc');
    expect(response.headers.get('vary')?.split(/\s*,\s*/).sort()).toEqual(['Accept', 'Origin']);
    expect(await response.text()).toBe('text');
  });
});
