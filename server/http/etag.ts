/** Strong entity tags and the `If-None-Match` test that turns an answer into a 304. */
import { createHash } from 'node:crypto';

export function strongEtag(body: string | Buffer): string {
  return `"${createHash('sha1').update(body).digest('base64url')}"`;
}

/**
 * RFC 9110 13.1.2, weak comparison. Koa's `ctx.fresh` is not used: it ignores If-None-Match when
 * the request says `Cache-Control: no-cache`, which fetch() adds to every conditional request.
 */
export function matchesEtag(ifNoneMatch: string, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === '*') return true;
  const opaque = etag.replace(/^W\//, '');
  return ifNoneMatch.split(',').some((candidate) => candidate.trim().replace(/^W\//, '') === opaque);
}
