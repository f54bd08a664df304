/**
 * The HTTP transport's executor: the route runs in this process, as the REST path runs it (the
 * same validation, handler and scope), only without the envelope around its data.
 */
import { asHttpError } from '../http/middleware/error-envelope';
import type { RequestScope } from '../http/route';
import type { Logger } from '../logger';
import { errorText, type Execute, type Outcome } from './outcome';

/**
 * An error as the error envelope renders it: a client error keeps its code and message, anything
 * else is logged in full and told in fixed words (no stack, SQL or secret reaches a model).
 */
export function failure(error: unknown, logger: Logger, path: string): Outcome {
  const known = asHttpError(error);
  if (!known || known.status >= 500) logger.error({ err: error, tool: path }, known?.message ?? 'tool call failed');
  return { ok: false, error: known ? errorText(known.code, known.message) : errorText('INTERNAL_ERROR', 'Internal server error') };
}

export function inProcess(scope: () => RequestScope, logger: Logger): Execute {
  return async (route, raw) => {
    try {
      const query = route.parse(raw);
      return { ok: true, data: await route.handle(query, scope()) };
    } catch (error) {
      return failure(error, logger, route.path);
    }
  };
}
