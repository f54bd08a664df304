/**
 * Each tool of tools.ts joined with its route: the MCP description of the tool (title and
 * description from the route's summary and description, the input schema from the route's
 * parameter schemas as the OpenAPI document writes them, the output schema from its response
 * schema). Both transports list exactly these.
 *
 * Arguments are JSON, so a decimal parameter (`amount`) is also taken as a JSON number (arguments.ts
 * turns it into the text a query would carry): its schema says both, each with the route's rules.
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { parameters } from '../http/openapi';
import { type NumberRange, numberFormOf } from '../http/params';
import type { Route } from '../http/route';
import { TOOLS, type ToolSpec } from './tools';

export interface ToolDefinition {
  readonly spec: ToolSpec;
  readonly route: Route;
  /** What `tools/list` says of it. */
  readonly tool: Tool;
}

type Json = Record<string, unknown>;

/**
 * A parameter's schema as JSON Schema proper: OpenAPI's `example` (from the zod metadata) becomes
 * `examples`, and the parameter's description moves into the schema.
 */
function propertyOf(parameter: Json, numberForm: NumberRange | undefined): Json {
  const { example, ...schema } = parameter.schema as Json;
  const accepted = numberForm ? { anyOf: [schema, { type: 'number', ...numberForm }] } : schema;
  return { ...accepted, description: parameter.description, ...(example !== undefined ? { examples: [example] } : {}) };
}

function inputSchema(route: Route, names: readonly string[]): Tool['inputSchema'] {
  const byName = new Map(parameters(route).map((p) => [p.name, p]));
  const properties: Record<string, Json> = {};
  const required: string[] = [];
  for (const name of names) {
    const parameter = byName.get(name);
    if (!parameter) throw new Error(`${route.path} has no parameter "${name}"`);
    const schema = route.query[name];
    properties[name] = propertyOf(parameter, schema ? numberFormOf(schema) : undefined);
    if (parameter.required === true) required.push(name);
  }
  return { type: 'object', properties, ...(required.length > 0 ? { required } : {}) };
}

/** `{ data: … }`, the route's data as the envelope carries it (structured content must be an object; history's data is an array). */
function outputSchema(route: Route): Tool['outputSchema'] {
  const { $schema: _dialect, ...schema } = z.toJSONSchema(z.object({ data: route.response }), { io: 'output', unrepresentable: 'any' }) as Json;
  return { ...schema, type: 'object' };
}

export function describeTools(routes: readonly Route[]): ToolDefinition[] {
  return TOOLS.map((spec) => {
    const route = routes.find((r) => r.path === spec.path);
    if (!route) throw new Error(`The tool ${spec.name} runs ${spec.path}, which is not among the routes`);
    return {
      spec,
      route,
      tool: {
        name: spec.name,
        title: route.summary,
        description: route.description ? `${route.summary}. ${route.description}` : route.summary,
        inputSchema: inputSchema(route, spec.params),
        outputSchema: outputSchema(route),
        // Every tool only reads the service's own data.
        annotations: { readOnlyHint: true, openWorldHint: false },
      },
    };
  });
}
