/**
 * /llms.txt at the site's root, where language-model tools look for it (not under /api/v1):
 * public, no key, built once per process from the route list, sent with a strong ETag.
 */
import type Router from '@koa/router';
import { strongEtag } from '../http/etag';
import { createLlmsTxt, type LlmsTxtOptions } from '../mcp/llms-txt';
import type { Route } from '../http/route';
import { sendWithEtag } from './respond';

export const LLMS_TXT_PATH = '/llms.txt';
export const LLMS_TXT_TYPE = 'text/plain; charset=utf-8';
/** It changes only with a new release, like the documents it summarizes. */
const CACHE_CONTROL = 'public, max-age=3600';

export function mountLlmsTxt(router: Router, routes: readonly Route[], options: LlmsTxtOptions): void {
  const text = createLlmsTxt(routes, options);
  const etag = strongEtag(text);
  router.get(LLMS_TXT_PATH, (ctx) => sendWithEtag(ctx, text, LLMS_TXT_TYPE, CACHE_CONTROL, etag));
}
