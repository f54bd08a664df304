/**
 * The MCP server both transports run: `tools/list` answers the definitions, `tools/call` turns the
 * arguments into the route's raw query and hands it to an executor (in-process on the HTTP
 * transport, the REST API on stdio).
 *
 * A result is two text items, the one-line summary first and then the route's `data` as JSON,
 * plus `structuredContent: { data }` (matching the tool's output schema). An error is a tool error
 * (`isError: true`) whose one text item is `CODE: message`, as the REST envelope has them. A call
 * whose params cannot be read (arguments that are not an object) is the protocol's -32602.
 *
 * The summary is plain text on one line (domain/plain-text.ts), and on a demo instance it says first that
 * the data is simulated, as the pages do: a model must not quote demo rates as the central bank's.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { type CallToolResult, ErrorCode, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv-provider.js';
import { version } from '../version';
import { toRawQuery } from './arguments';
import type { ToolDefinition } from './definitions';
import type { Execute, Outcome } from './outcome';
import { plainText } from '../domain/plain-text';
import { ToolCallRequestSchema } from './tool-call';

const INSTRUCTIONS =
  'The official USD/CRC exchange rate of the Banco Central de Costa Rica (colones per US dollar, buy and sell), every calendar day since 1983, with conversions, statistics, month closes, window rates of banks and a market summary. Dates are YYYY-MM-DD, in Costa Rica time.';

export interface ToolServerOptions {
  /** The instance serves simulated data (`npm run demo`). */
  demo?: boolean;
}

/** In the summary's language: Spanish where the data says it is (get_insights with `locale=es`). */
const DEMO_LABEL = { en: 'Demo data, simulated', es: 'Datos de demostración, simulados' } as const;

function summaryOf(definition: ToolDefinition, data: unknown, demo: boolean): string {
  // Names in it come from upstream: one line of plain text, whatever they hold.
  const line = plainText(definition.spec.summarize(data));
  if (!demo) return line;
  const locale = typeof data === 'object' && data !== null && 'locale' in data && data.locale === 'es' ? 'es' : 'en';
  return `${DEMO_LABEL[locale]}: ${line}`;
}

function toolResult(definition: ToolDefinition, outcome: Outcome, demo: boolean): CallToolResult {
  if (!outcome.ok) return { content: [{ type: 'text', text: outcome.error }], isError: true };
  return {
    content: [
      { type: 'text', text: summaryOf(definition, outcome.data, demo) },
      { type: 'text', text: JSON.stringify(outcome.data) },
    ],
    structuredContent: { data: outcome.data },
  };
}

/**
 * One JSON Schema validator for every server: the HTTP transport makes a server per request, and
 * each would otherwise build an Ajv instance of its own, a tenth of a tool call's CPU. It keeps
 * nothing of a request (the SDK uses it only to check what a client sends back when asked).
 */
let validator: AjvJsonSchemaValidator | undefined;

export function createToolServer(definitions: readonly ToolDefinition[], execute: Execute, { demo = false }: ToolServerOptions = {}): Server {
  const byName = new Map(definitions.map((d) => [d.spec.name, d]));
  validator ??= new AjvJsonSchemaValidator();
  const server = new Server({ name: 'crc-rates', version }, { capabilities: { tools: {} }, instructions: INSTRUCTIONS, jsonSchemaValidator: validator });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: definitions.map((d) => d.tool) }));
  server.setRequestHandler(ToolCallRequestSchema, async ({ params }) => {
    if (params.problem) throw new McpError(ErrorCode.InvalidParams, params.problem);
    const definition = byName.get(params.name);
    // Not a tool error: the call names no tool at all (the protocol's own error, as the spec asks).
    if (!definition) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${params.name}`);
    const outcome = await execute(definition.route, toRawQuery(params.arguments, definition.spec.params));
    return toolResult(definition, outcome, demo);
  });
  return server;
}
