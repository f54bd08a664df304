#!/usr/bin/env node
/**
 * Builds the add-on and uploads it to your own Apps Script project, creating that project the
 * first time: `npm run addon:push` (after `npx clasp login`, once per machine).
 *
 * The project is a standalone script named "CRC Rates", made by `clasp create-script` on the first
 * run; its id is written to appsscript/.clasp.json (git-ignored: it is yours, not the
 * repository's), so there is no script id to copy by hand, and one project serves every sheet you
 * test it in as an editor add-on (Deploy → Test deployments in the script editor). Every later run
 * pushes to the same project.
 *
 * Options are the build's (`--base-url https://rates.example.com`, `--allow https://…`), plus
 * `--dry-run`, which builds and prints the clasp commands without running them.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
const PROJECT_FILE = path.join(here, '.clasp.json');
const TITLE = 'CRC Rates';

const args = process.argv.slice(2);
const dryRun = args.includes('--dry-run');
const buildArgs = args.filter((a) => a !== '--dry-run');
if (!dryRun && args.some((a) => a === '--out' || a.startsWith('--out='))) {
  console.error('addon:push: --out is for addon:build alone; addon:push pushes appsscript/dist');
  process.exit(1);
}

function run(command, commandArgs, cwd) {
  const shown = [command, ...commandArgs].map((a) => (/\s/.test(a) ? `"${a}"` : a)).join(' ');
  if (dryRun && command !== process.execPath) {
    console.log(`addon:push: would run (in ${path.relative(root, cwd) || '.'}): ${shown}`);
    return;
  }
  const result = spawnSync(command, commandArgs, { cwd, stdio: 'inherit' });
  if (result.error) {
    console.error(`addon:push: could not run ${command}: ${result.error.message}`);
    process.exit(1);
  }
  if (result.status !== 0) process.exit(result.status ?? 1);
}

// clasp from this repository's dependencies, run in appsscript/ with `-P .`: the project file is
// appsscript/.clasp.json and the files it pushes are appsscript/dist/ (its rootDir).
const clasp = path.join(root, 'node_modules', '.bin', process.platform === 'win32' ? 'clasp.cmd' : 'clasp');

if (!existsSync(PROJECT_FILE)) {
  // First run: a new standalone project. clasp also pulls its starter files into dist/, which the build then replaces.
  run(clasp, ['-P', '.', 'create-script', '--type', 'standalone', '--title', TITLE, '--rootDir', 'dist'], here);
}
run(process.execPath, [path.join(here, 'build.mjs'), ...buildArgs], root);
// --force: the manifest changes with the build options (the whitelist), and clasp would stop to ask.
run(clasp, ['-P', '.', 'push', '--force'], here);
if (!dryRun) {
  console.log(`addon:push: pushed to the Apps Script project in ${path.relative(root, PROJECT_FILE)}. Open it with: npx clasp -P appsscript open-script`);
}
