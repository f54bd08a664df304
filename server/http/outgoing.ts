/**
 * The headers and body of an answer, collected while the request passes through and written in
 * one `writeHead` + `end`. Node's `setHeader` (behind Koa's `ctx.set`) costs more per header than
 * a cached answer's whole lookup, and an answer carries about twenty; a flat list given to
 * `writeHead` does not pay it. Answers that Koa writes itself (site pages, documents it streams)
 * get the collected headers through `ctx.set` instead.
 */
import type { Context } from 'koa';

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * Header names compared without case and without allocating: the answer's headers are searched
 * on every \`set\`, twenty times a request, and lowering both names each time made more garbage
 * than the rest of the lookup.
 */
function sameName(a: string, b: string): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y && lowerAscii(x) !== lowerAscii(y)) return false;
  }
  return true;
}

const lowerAscii = (code: number) => (code >= 65 && code <= 90 ? code + 32 : code);

export class Outgoing {
  /** Name, value, name, value… in the order first set: the shape `writeHead` takes. */
  private readonly fields: string[] = [];
  private status = 0;
  private body: string | Buffer | null = null;

  set(name: string, value: string): void {
    const at = this.indexOf(name);
    if (at < 0) this.fields.push(name, value);
    else this.fields[at + 1] = value;
  }

  setAll(fields: Readonly<Record<string, string>>): void {
    for (const name in fields) this.set(name, fields[name] as string);
  }

  get(name: string): string | undefined {
    const at = this.indexOf(name);
    return at < 0 ? undefined : this.fields[at + 1];
  }

  remove(name: string): void {
    const at = this.indexOf(name);
    if (at >= 0) this.fields.splice(at, 2);
  }

  /** Answers with JSON, as text or already encoded (or nothing, for 304), written once everything has run. */
  send(ctx: Context, status: number, json: string | Buffer | null): void {
    ctx.status = status;
    this.status = status;
    this.body = json;
  }

  get sent(): boolean {
    return this.status !== 0;
  }

  /** Writes the answer, or hands the headers to Koa when something else is answering. */
  flush(ctx: Context): void {
    const res = ctx.res;
    if (!this.sent || res.headersSent || !ctx.writable) {
      for (let i = 0; i < this.fields.length; i += 2) {
        const name = this.fields[i] as string;
        // A page may vary on more than Origin (Accept, say): add to its list, do not replace it.
        if (sameName(name, 'Vary')) ctx.vary(this.fields[i + 1] as string);
        else ctx.set(name, this.fields[i + 1] as string);
      }
      return;
    }
    ctx.respond = false;
    if (this.body === null) {
      res.writeHead(this.status, this.fields);
      res.end();
      return;
    }
    // The length is the body's, always; a type set on purpose is kept.
    this.set('Content-Length', String(typeof this.body === 'string' ? Buffer.byteLength(this.body) : this.body.length));
    if (this.indexOf('Content-Type') < 0) this.fields.push('Content-Type', JSON_TYPE);
    res.writeHead(this.status, this.fields);
    // Node leaves the body out by itself when the request was HEAD.
    res.end(this.body);
  }

  private indexOf(name: string): number {
    for (let i = 0; i < this.fields.length; i += 2) if (sameName(this.fields[i] as string, name)) return i;
    return -1;
  }
}

/** Starts the answer of a request; the request's lifecycle writes it at the end. */
export function openOutgoing(ctx: Context): Outgoing {
  const out = new Outgoing();
  (ctx.state as { outgoing: Outgoing }).outgoing = out;
  return out;
}

/** The answer being prepared for this request. */
export function outgoing(ctx: Context): Outgoing {
  return (ctx.state as { outgoing: Outgoing }).outgoing;
}
