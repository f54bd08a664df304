/**
 * Before the run, once for every test file:
 * - the operator commands (`sync`, `keys`, `mcp`) compiled as `npm run <command>` compiles them
 *   (scripts/build.mjs), so that each test spawns `node` on the bundle as a user's command runs,
 *   without a TypeScript loader's start in every child (test/helpers/commands.ts);
 * - one embedded database with every migration applied, which each test's embedded database
 *   starts from (test/helpers/database.ts): opening an empty PGlite and migrating it takes a few
 *   seconds, loading the copy well under one. Written on PostgreSQL too, for the tests of the
 *   embedded database itself.
 *
 * Both go in a folder named like scripts/run.mjs's own (dist/.run-PID-…), so that, should the run
 * be killed, the next command cleans it up; test/global-teardown.mjs removes it. The tests find
 * them through CRC_TEST_COMMANDS and CRC_TEST_DATABASE_TEMPLATE.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { build, DIST } from '../scripts/build.mjs';

const ROOT = path.dirname(DIST);

function writeEmbeddedTemplate(file) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'test/helpers/embedded-template.ts', file], {
      cwd: ROOT,
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`the embedded database template was not written (exit ${code})`))));
  });
}

export default async function prepare() {
  fs.mkdirSync(DIST, { recursive: true });
  const outdir = fs.mkdtempSync(path.join(DIST, `.run-${process.pid}-tests-`));
  process.env.CRC_TEST_COMMANDS = outdir;
  const template = path.join(outdir, 'embedded-template.tar');
  await Promise.all([build(['sync', 'keys', 'mcp', 'webhooks'], outdir), writeEmbeddedTemplate(template)]);
  process.env.CRC_TEST_DATABASE_TEMPLATE = template;
}
