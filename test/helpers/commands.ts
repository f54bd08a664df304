/**
 * How tests start an operator command: `node` on the bundle test/global-setup.mjs compiled for
 * this run, with source maps on, as `npm run sync|keys|mcp` runs it (scripts/run.mjs).
 */
import path from 'node:path';

export type CommandName = 'sync' | 'keys' | 'mcp' | 'webhooks';

/** The executable and its arguments that start `name` with `args`. */
export function commandLine(name: CommandName, args: readonly string[] = []): [string, ...string[]] {
  const compiled = process.env.CRC_TEST_COMMANDS;
  if (!compiled) throw new Error('CRC_TEST_COMMANDS is not set: run the tests through `npm test` (jest.config.js compiles the commands first)');
  return [process.execPath, '--enable-source-maps', path.join(compiled, `${name}.js`), ...args];
}
