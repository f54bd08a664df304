/**
 * What one POST to the MCP endpoint carries, read before anything runs: a JSON-RPC message, or a
 * batch of them. A batch is bounded (each tool call in it may answer a year of rates, about
 * 120 KB), and its tool calls are what it costs: each is one request of the key.
 */
import { LIMITS } from '../../shared/limits';
import { badRequest } from '../errors';

const MAX_BATCH = LIMITS.mcp.batch;

/** A request (it has an id, so it is answered) calling a tool; a `tools/call` without an id is a notification that runs nothing. */
function isToolCall(message: unknown): boolean {
  return typeof message === 'object' && message !== null && 'id' in message && 'method' in message && message.method === 'tools/call';
}

/** How many tool calls the body carries; a 400 for a batch over MAX_BATCH, before any of it runs or is counted. */
export function countToolCalls(body: unknown): number {
  const messages = Array.isArray(body) ? body : [body];
  if (messages.length > MAX_BATCH) {
    throw badRequest(`A batch holds at most ${MAX_BATCH} messages (got ${messages.length}): send the rest in another request`);
  }
  return messages.filter(isToolCall).length;
}
