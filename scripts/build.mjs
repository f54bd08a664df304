#!/usr/bin/env node
/**
 * Compiles the server and its commands into dist/ for production: dist/main.js serves,
 * dist/sync.js and dist/keys.js are the operator commands, dist/mcp.js the MCP server on stdio,
 * dist/demo.js the service on simulated data (`npm run demo`).
 * Our code is bundled (one file per entry, with a source map); packages stay in node_modules and
 * are required as usual. Types are checked by `npm run typecheck`, not here, so a build takes
 * well under a second.
 *
 *   node scripts/build.mjs            every entry
 *   import { build } from './build.mjs'; await build(['main'])   (into another folder: build(['main'], dir))
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const DIST = path.join(root, 'dist');

export const ENTRIES = {
  main: 'server/main.ts',
  sync: 'server/cli/sync.ts',
  keys: 'server/cli/keys.ts',
  webhooks: 'server/cli/webhooks.ts',
  mcp: 'server/mcp/stdio.ts',
  demo: 'server/demo/main.ts',
};
/** The entries that serve the site, which reads its scripts and styles from beside its code. */
const SERVING = ['main', 'demo'];

export async function build(names = Object.keys(ENTRIES), outdir = DIST) {
  await esbuild.build({
    absWorkingDir: root,
    entryPoints: Object.fromEntries(names.map((name) => [name, ENTRIES[name]])),
    outdir,
    bundle: true,
    packages: 'external',
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    sourcemap: true,
    logLevel: 'warning',
  });
  // The site reads its scripts and styles from beside its code: in the bundle, that is dist/assets.
  if (names.some((name) => SERVING.includes(name))) fs.cpSync(path.join(root, 'server/site/assets'), path.join(outdir, 'assets'), { recursive: true });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await build();
