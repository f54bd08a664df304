/**
 * koa-compress for the answers worth compressing, and no compression work at all for the others.
 * koa-compress weighs every answer after the route (a dozen header reads, the content type looked
 * up in the MIME database, the options copied) before it reaches its size threshold; an answer
 * under the threshold is told apart here first, from the length of its body, and left alone.
 * The decision is koa-compress's own: the same threshold, the same answers compressed.
 */
import type { Context, Middleware } from 'koa';
import compress from 'koa-compress';
import { COMPRESS_FROM_BYTES } from '../response-cache';

/** A UTF-8 character takes at most 3 bytes of a JavaScript string's UTF-16 unit. */
const MAX_BYTES_PER_UNIT = 3;

/** Whether the body is a text or bytes shorter than the threshold (a stream or an object is weighed by koa-compress). */
function belowThreshold(ctx: Context): boolean {
  const { body } = ctx;
  if (typeof body === 'string') {
    if (body.length * MAX_BYTES_PER_UNIT < COMPRESS_FROM_BYTES) return true;
    return body.length < COMPRESS_FROM_BYTES && Buffer.byteLength(body) < COMPRESS_FROM_BYTES;
  }
  return Buffer.isBuffer(body) && body.length < COMPRESS_FROM_BYTES;
}

const nothingMore = () => Promise.resolve();

export function compressLarge(): Middleware {
  const compressor = compress({ threshold: COMPRESS_FROM_BYTES });
  return async function compressLarge(ctx, next) {
    // As koa-compress does first: every answer may differ by the client's Accept-Encoding.
    ctx.vary('Accept-Encoding');
    await next();
    if (ctx.compress === false || belowThreshold(ctx)) return;
    await compressor(ctx, nothingMore);
  };
}
