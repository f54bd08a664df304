#!/usr/bin/env node
/**
 * `npm start`, `npm run sync`, `npm run keys`, `npm run mcp`, `npm run demo`: compiles the entry
 * (well under a second, so a fresh clone and an edited tree alike run what the sources say) and
 * runs it in this same process, so signals such as SIGTERM reach the server itself and its graceful
 * stop. package.json starts this file with `exec`: npm runs a script through `sh -c`, and sh would
 * otherwise sit between npm and node and die of the SIGTERM or SIGINT npm passes on, leaving the
 * server running without a parent; with `exec`, node is npm's own child and gets the signal.
 *
 * The two servers' scripts also set MALLOC_ARENA_MAX (2, unless it is set already), as the
 * Dockerfile does. glibc's allocator otherwise gives each thread that allocates while another
 * does (V8's helper threads) an arena of its own, up to eight per core, and seldom gives back the
 * memory freed in them. glibc reads the variable as the process starts, so it cannot be set from
 * here. In the bench, after the same rows: the PostgreSQL server at 182–197 MB of RSS against
 * 191–215, the embedded one at 372–402 against 417–525, for no CPU per request that the runs
 * could tell from their noise (bench/README.md).
 *
 * Each run compiles into a folder of its own (dist/.run-PID-…, removed when it exits): commands
 * run at the same time (a cron sync, an operator's keys, the server) would otherwise rewrite the
 * one dist/keys.js while another loads it, and a process that loads a file being rewritten runs
 * an empty one and exits 0 having done nothing.
 *
 *   node scripts/run.mjs main|sync|keys|mcp [arguments…]
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { build, DIST, ENTRIES } from './build.mjs';

const [name, ...args] = process.argv.slice(2);
if (!(name in ENTRIES)) {
  process.stderr.write(`usage: node scripts/run.mjs ${Object.keys(ENTRIES).join('|')} [arguments…]\n`);
  process.exit(2);
}

function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

/** The folders of runs that ended without cleaning up (killed): their pid is gone. */
function removeLeftovers() {
  for (const entry of fs.readdirSync(DIST, { withFileTypes: true })) {
    const pid = /^\.run-(\d+)-/.exec(entry.name)?.[1];
    if (entry.isDirectory() && pid && !isAlive(Number(pid))) fs.rmSync(path.join(DIST, entry.name), { recursive: true, force: true });
  }
}

/** The entries that run until stopped; the commands finish by themselves. */
const SERVERS = new Set(['main', 'demo']);
const PARENT_CHECK_MS = 500;

/**
 * npm passes SIGTERM and SIGINT on to this process, but not SIGHUP, and nothing at all when it is
 * killed outright: npm is gone and this process, handed to PID 1, would go on serving and holding
 * the data folder. So a server that npm started stops as on SIGTERM once npm is no longer its
 * parent. Only then: a server started by hand and left running in the background is left alone.
 */
function stopWhenNpmIsGone() {
  const startedByNpm = process.env.npm_lifecycle_script?.endsWith(`exec node scripts/run.mjs ${name}`) === true;
  if (!startedByNpm || !SERVERS.has(name)) return;
  const npm = process.ppid;
  const watch = setInterval(() => {
    if (process.ppid === npm) return;
    clearInterval(watch);
    process.kill(process.pid, 'SIGTERM');
  }, PARENT_CHECK_MS);
  watch.unref();
}

stopWhenNpmIsGone();
fs.mkdirSync(DIST, { recursive: true });
removeLeftovers();
// Inside dist/, so that the packages (left out of the bundle) are found in node_modules as usual.
const outdir = fs.mkdtempSync(path.join(DIST, `.run-${process.pid}-`));
process.once('exit', () => fs.rmSync(outdir, { recursive: true, force: true }));
await build([name], outdir);
// The entry reads its arguments from process.argv, as if it had been started itself.
const entry = path.join(outdir, `${name}.js`);
process.argv = [process.argv[0], entry, ...args];
process.setSourceMapsEnabled(true);
createRequire(import.meta.url)(entry);
