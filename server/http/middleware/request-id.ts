/** Tags each request with an id, sent back in `X-Request-Id` and written in its log line. */
import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';
import type { AppState } from '../../app-state';

const VALID_ID = /^[\w.-]{1,64}$/;

/** The caller's `X-Request-Id` when it is a sane one, a fresh one otherwise. */
export function requestId(): Middleware {
  return async function requestId(ctx, next) {
    const incoming = ctx.get('x-request-id');
    const id = VALID_ID.test(incoming) ? incoming : randomUUID();
    const state: AppState = ctx.state;
    state.requestId = id;
    ctx.set('X-Request-Id', id);
    await next();
  };
}
