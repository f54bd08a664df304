/**
 * The params of a `tools/call`, read by this server rather than by the SDK: the SDK's schema
 * answers arguments of the wrong shape (`[30]`, `null`, a string) with -32603 Internal error and a
 * validation dump. Read here, they are -32602 Invalid params with one short sentence, and the call
 * runs nothing (so it costs nothing).
 */
import { z } from 'zod';

export interface ToolCallParams {
  /** The tool named; empty when `problem` says why there is none. */
  name: string;
  arguments?: Record<string, unknown>;
  /** Why the call cannot run: the -32602's message. */
  problem?: string;
}

/** What a JSON value is, in the words of a message: "an array", "null", "a string". */
function kindOf(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

export function readToolCall(params: unknown): ToolCallParams {
  if (!isObject(params)) return { name: '', problem: `tools/call takes an object with the tool's "name" and its "arguments" (got ${kindOf(params)})` };
  const { name, arguments: args } = params;
  if (typeof name !== 'string') return { name: '', problem: `"name" must be the name of a tool as tools/list gives it (got ${kindOf(name)})` };
  // Left out, the tool runs with its defaults; anything but an object of arguments by name is refused.
  if (args === undefined) return { name };
  if (!isObject(args)) return { name, problem: `"arguments" must be an object of the tool's arguments by name (got ${kindOf(args)})` };
  return { name, arguments: args };
}

/**
 * `tools/call` as the server registers it: only the method is checked as the SDK checks it, and
 * the params become what `readToolCall` makes of them (always a shape the SDK's own check passes).
 */
export const ToolCallRequestSchema = z.object({ method: z.literal('tools/call'), params: z.unknown().optional().transform(readToolCall) });
