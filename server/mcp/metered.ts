/**
 * Each tool call is one request of the key, alone or in a batch, and is counted as a REST request
 * is: one of the per-minute limit before it runs, and one unit of the monthly quota once it is
 * answered with data (a tool error, like a REST 4xx, spends none). A call refused by either comes
 * back as a tool error with the REST refusal's code and message (RATE_LIMITED, QUOTA_EXCEEDED),
 * and the other calls of the batch are answered all the same.
 *
 * The counting sets the limit and quota headers on the POST's own answer as it goes; the endpoint
 * sets them once more when the whole POST is done (http.ts).
 */
import type { Context } from 'koa';
import type { AccessControl } from '../access/access';
import type { ApiKey } from '../store/api-keys';
import type { Logger } from '../logger';
import { failure } from './in-process';
import type { Execute, Outcome } from './outcome';

export function metered(execute: Execute, { access, ctx, key, logger }: { access: AccessControl; ctx: Context; key: ApiKey; logger: Logger }): Execute {
  /** Null when `count` passed; the refusal as a tool error otherwise. */
  const refusal = async (count: () => Promise<void>, path: string): Promise<Outcome | null> => {
    try {
      await count();
      return null;
    } catch (error) {
      return failure(error, logger, path);
    }
  };
  return async (route, raw) => {
    const limited = await refusal(() => access.check(ctx), route.path);
    if (limited) return limited;
    const outcome = await execute(route, raw);
    if (!outcome.ok) return outcome;
    return (await refusal(() => access.consume(ctx, key), route.path)) ?? outcome;
  };
}
