/**
 * Before the run: the operator commands (`sync`, `keys`, `mcp`) compiled once, as `npm run
 * <command>` compiles them (scripts/build.mjs), so that each test spawns `node` on the bundle as a
 * user's command runs, without paying for a TypeScript loader's start in every child
 * (test/helpers/commands.ts).
 *
 * The folder is named like scripts/run.mjs's own (dist/.run-PID-…): should the run be killed, the
 * next command cleans it up. Its path reaches the tests through CRC_TEST_COMMANDS, and
 * test/global-teardown.mjs removes it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { build, DIST } from '../scripts/build.mjs';

export default async function compileCommands() {
  fs.mkdirSync(DIST, { recursive: true });
  const outdir = fs.mkdtempSync(path.join(DIST, `.run-${process.pid}-tests-`));
  await build(['sync', 'keys', 'mcp'], outdir);
  process.env.CRC_TEST_COMMANDS = outdir;
}
