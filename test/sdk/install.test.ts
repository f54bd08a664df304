/**
 * SLOW (two builds of the SDK, about 20–40 s): the SDK installed from the repository with npm
 * itself, as the SDK's README says, and its example run against a real server:
 * - `npm pack` in sdk/ (its `prepare` builds dist/), the tarball installed into an empty project;
 * - the install line the README starts with (`npm install ../crc-rates/sdk`), run as written in
 *   another empty project beside the repository (a link, built by the same `prepare`).
 * Both work on a copy of sdk/ and shared/ (with the repository's node_modules), so the test never
 * writes into the working tree, where types.test.ts builds sdk/dist at the same time. npm runs
 * offline: the package has no dependencies to fetch.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { rate, startTestApp, type TestApp } from '../helpers/app';

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, '../..');
const QUICKSTART = path.join(ROOT, 'sdk/examples/quickstart.mjs');

/**
 * The first shell block of the README's Install section: `cd` into the project, then the install
 * line, which the test runs word for word there.
 */
function readmeInstall(): { project: string; args: string[] } {
  const readme = fs.readFileSync(path.join(ROOT, 'sdk/README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Install\n'));
  const block = /```sh\n([^`]*)```/.exec(section)?.[1] ?? '';
  const [cd, install, ...rest] = block.trim().split('\n');
  const project = /^cd (\S+)$/.exec(cd ?? '')?.[1];
  if (!project || !install?.startsWith('npm install ') || rest.length > 0) throw new Error(`sdk/README.md: unexpected Install block:\n${block}`);
  return { project, args: install.split(/\s+/).slice(1) };
}

// 12:00 on 2025-01-16 in Costa Rica.
const NOW = new Date('2025-01-16T18:00:00Z');
const EXPECTED_OUTPUT = '2025-01-16: buy ₡515, sell ₡525\nUSD 100 = ₡52500\n';

/** The environment without the npm_* variables of the `npm test` that may be running this file, which would steer the npm run here. */
const ENV = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name)));
const NPM_FLAGS = ['--offline', '--no-audit', '--no-fund', '--no-update-notifier'];

async function command(file: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv = ENV): Promise<string> {
  try {
    const { stdout } = await run(file, args, { cwd, env, maxBuffer: 16 * 1024 * 1024 });
    return stdout;
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(`${file} ${args.join(' ')} (in ${cwd}) failed: ${e.message}\n${e.stdout ?? ''}\n${e.stderr ?? ''}`);
  }
}

/** A repository holding only what the SDK's build reads: sdk/ (without dist/) and shared/, and the root's node_modules. */
function repositoryCopy(into: string): string {
  const repo = path.join(into, 'crc-rates');
  const skip = new Set([path.join(ROOT, 'sdk/dist'), path.join(ROOT, 'sdk/node_modules')]);
  for (const dir of ['sdk', 'shared']) {
    fs.cpSync(path.join(ROOT, dir), path.join(repo, dir), { recursive: true, filter: (source) => !skip.has(source) });
  }
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(repo, 'node_modules'));
  return repo;
}

/** An empty project with the example in it. */
function project(into: string, name: string): string {
  const dir = path.join(into, name);
  fs.mkdirSync(dir);
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name, version: '1.0.0', private: true }));
  fs.copyFileSync(QUICKSTART, path.join(dir, 'quickstart.mjs'));
  return dir;
}

let t: TestApp;
let tmp: string;

beforeAll(async () => {
  t = await startTestApp({ clock: () => NOW });
  await t.seed([rate('2025-01-14', 512, 522), rate('2025-01-15', 513.5, 523.25), rate('2025-01-16', 515, 525)]);
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'crc-rates-sdk-install-'));
});
afterAll(async () => {
  await t.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** Runs the example in `dir` against the test server, given as a bare origin. */
function quickstart(dir: string): Promise<string> {
  return command(process.execPath, ['quickstart.mjs'], dir, { ...ENV, CRC_RATES_API_KEY: t.key, CRC_RATES_URL: t.url });
}

it("installs with npm from a packed tarball and with the README's install line, and the example runs in both", async () => {
  // Two copies, so that the two builds can run side by side.
  const packed = repositoryCopy(path.join(tmp, 'for-pack'));
  const linked = repositoryCopy(path.join(tmp, 'for-link'));
  const fromTarball = project(tmp, 'from-tarball');
  // As the README has it: the project beside the repository's copy.
  const readme = readmeInstall();
  const fromPath = project(path.dirname(linked), readme.project);
  expect(fs.existsSync(path.join(packed, 'sdk/dist'))).toBe(false);
  expect(fs.existsSync(path.join(linked, 'sdk/dist'))).toBe(false);

  const packAndInstall = async () => {
    await command('npm', ['pack', '--pack-destination', tmp, ...NPM_FLAGS], path.join(packed, 'sdk'));
    const tarball = path.join(tmp, 'crc-rates-sdk-1.0.0.tgz');
    const listing = (await command('tar', ['-tzf', tarball], tmp)).trim().split('\n').sort();
    // What `files` ships, and nothing of the source or the build.
    expect(listing).toEqual(
      [
        'package/README.md',
        'package/package.json',
        ...['abort', 'base-url', 'client', 'dates', 'errors', 'index', 'params', 'params.generated', 'types', 'webhooks'].flatMap((m) => [
          `package/dist/${m}.d.mts`,
          `package/dist/${m}.d.ts`,
        ]),
        'package/dist/index.js',
        'package/dist/index.mjs',
      ].sort(),
    );
    await command('npm', ['install', tarball, ...NPM_FLAGS], fromTarball);
  };
  const installPath = () => command('npm', [...readme.args, ...NPM_FLAGS], fromPath);
  await Promise.all([packAndInstall(), installPath()]);

  // The tarball: a copy in node_modules; ESM (the example) and CommonJS both load it.
  const installed = path.join(fromTarball, 'node_modules/@crc-rates/sdk');
  expect(fs.lstatSync(installed).isSymbolicLink()).toBe(false);
  expect(await quickstart(fromTarball)).toBe(EXPECTED_OUTPUT);
  const cjs = [
    "const { ExchangeRateClient } = require('@crc-rates/sdk');",
    `new ExchangeRateClient({ apiKey: ${JSON.stringify(t.key)}, baseUrl: ${JSON.stringify(t.api)} }).getLatest().then((r) => console.log(r.sell));`,
  ].join('\n');
  expect(await command(process.execPath, ['-e', cjs], fromTarball)).toBe('525\n');

  // The path: a link to the SDK's directory, whose dist/ the install's `prepare` built.
  const link = path.join(fromPath, 'node_modules/@crc-rates/sdk');
  expect(fs.lstatSync(link).isSymbolicLink()).toBe(true);
  expect(fs.realpathSync(link)).toBe(fs.realpathSync(path.join(linked, 'sdk')));
  expect(fs.existsSync(path.join(linked, 'sdk/dist/index.mjs'))).toBe(true);
  expect(JSON.parse(fs.readFileSync(path.join(fromPath, 'package.json'), 'utf8')).dependencies).toEqual({ '@crc-rates/sdk': 'file:../crc-rates/sdk' });
  expect(await quickstart(fromPath)).toBe(EXPECTED_OUTPUT);
}, 120_000);
