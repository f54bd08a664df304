/**
 * The request body of the few routes that take one (the site's request-access form, the MCP
 * endpoint), parsed by the route itself so that no other request pays for a parser: at most
 * BODY_LIMIT_KB, a 413 beyond, a 400 for a body that cannot be read.
 */
import { bodyParser } from '@koa/bodyparser';
import type { Middleware } from 'koa';
import { badRequest, HttpError } from '../../errors';

export const BODY_LIMIT_KB = 16;

/** `unreadable` is the 400's message, naming what the route expected (e.g. "valid JSON"). */
export function parseBody(types: Array<'json' | 'form'>, unreadable: string): Middleware {
  return bodyParser({
    enableTypes: types,
    jsonLimit: `${BODY_LIMIT_KB}kb`,
    formLimit: `${BODY_LIMIT_KB}kb`,
    // The parser's own errors carry a status but are not marked safe to show: say plainly what was wrong.
    onError(error) {
      if ((error as { status?: unknown }).status === 413) throw new HttpError('PAYLOAD_TOO_LARGE', `The body must be at most ${BODY_LIMIT_KB} KB`);
      throw badRequest(unreadable);
    },
  });
}
