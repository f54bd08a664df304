#!/usr/bin/env node
/**
 * `npm start`, `npm run sync`, `npm run keys`: compiles the entry (well under a second, so a
 * fresh clone and an edited tree alike run what the sources say) and runs it in this same
 * process, so signals such as SIGTERM reach the server itself and its graceful stop.
 *
 *   node scripts/run.mjs main|sync|keys [arguments…]
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { build, DIST, ENTRIES } from './build.mjs';

const [name, ...args] = process.argv.slice(2);
if (!(name in ENTRIES)) {
  process.stderr.write(`usage: node scripts/run.mjs ${Object.keys(ENTRIES).join('|')} [arguments…]\n`);
  process.exit(2);
}
await build([name]);
// The entry reads its arguments from process.argv, as if it had been started itself.
process.argv = [process.argv[0], path.join(DIST, `${name}.js`), ...args];
process.setSourceMapsEnabled(true);
createRequire(import.meta.url)(path.join(DIST, `${name}.js`));
