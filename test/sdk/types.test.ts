/**
 * The SDK's types and its build. sdk/examples/usage.ts calls every method, pins the type of what
 * each returns and keeps `@ts-expect-error` lines for wrong parameters; it must type-check
 * against the source and, after `node sdk/build.mjs`, against the built declarations as a user
 * installs them (ESM and CJS, under every module resolution a user may have, without DOM or Node
 * types). The built bundles must load with `require` and `import()` and work.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { ok, RECORD, startStub } from './stub';
import { checkFiles, checkProject } from './type-check';

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, '../..');
const SDK = path.join(ROOT, 'sdk');
const DIST = path.join(SDK, 'dist');
const EXAMPLE = path.join(SDK, 'examples/usage.ts');

interface Outcome {
  code: number;
  output: string;
}

async function node(args: readonly string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<Outcome> {
  try {
    const { stdout, stderr } = await run(process.execPath, args, { cwd: options.cwd ?? ROOT, env: options.env ?? process.env, maxBuffer: 16 * 1024 * 1024 });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : 1, output: `${e.stdout ?? ''}${e.stderr ?? ''}` };
  }
}

/** A directory where the built package is installed as npm would: only what `files` ships. */
function consumerProject(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crc-rates-sdk-consumer-'));
  const installed = path.join(dir, 'node_modules/@crc-rates/sdk');
  fs.mkdirSync(installed, { recursive: true });
  const pkg = JSON.parse(fs.readFileSync(path.join(SDK, 'package.json'), 'utf8')) as { files: string[] };
  fs.copyFileSync(path.join(SDK, 'package.json'), path.join(installed, 'package.json'));
  for (const entry of pkg.files) fs.cpSync(path.join(SDK, entry), path.join(installed, entry), { recursive: true });
  const example = fs.readFileSync(EXAMPLE, 'utf8');
  for (const name of ['usage.ts', 'usage.mts', 'usage.cts']) fs.writeFileSync(path.join(dir, name), example);
  return dir;
}

/** Type-checks `file` in `dir` with these options, as a consumer's tsconfig.json would set them. */
function check(dir: string, file: string, options: Record<string, unknown>) {
  const compilerOptions = { strict: true, noEmit: true, skipLibCheck: false, types: [], lib: ['ES2022'], target: 'ES2022', ...options };
  return checkFiles([path.join(dir, file)], compilerOptions, dir);
}

describe('types against the source', () => {
  it('sdk/examples/usage.ts type-checks against sdk/src (every @ts-expect-error is an error)', () => {
    expect(checkProject(path.join(SDK, 'tsconfig.json')).report).toBe('');
  }, 120_000);

  it('the check is not vacuous: a wrong result type fails', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crc-rates-sdk-wrong-'));
    try {
      const file = path.join(dir, 'wrong.ts');
      fs.writeFileSync(
        file,
        [
          `import { ExchangeRateClient } from ${JSON.stringify(path.join(SDK, 'src'))};`,
          'export async function wrong(client: ExchangeRateClient) {',
          '  const sell: string = (await client.getLatest()).sell;',
          '  return sell;',
          '}',
        ].join('\n'),
      );
      const options = { strict: true, noEmit: true, types: [], lib: ['ES2022', 'DOM'], moduleResolution: 'Bundler', module: 'ESNext', skipLibCheck: true };
      expect(checkFiles([file], options, dir).report).toContain("error TS2322: Type 'number' is not assignable to type 'string'");
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});

it('the checks share parsed library files, not what a library declares: no DOM without the DOM library', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crc-rates-sdk-lib-'));
  try {
    const file = path.join(dir, 'page.ts');
    fs.writeFileSync(file, 'export const title = document.title;\n');
    const options = { strict: true, noEmit: true, types: [], module: 'ESNext', moduleResolution: 'Bundler' };
    expect(checkFiles([file], { ...options, lib: ['ES2022', 'DOM'] }, dir).report).toBe('');
    expect(checkFiles([file], { ...options, lib: ['ES2022'] }, dir).report).toContain("error TS2584: Cannot find name 'document'");
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

describe('the built package', () => {
  let consumer: string;
  beforeAll(async () => {
    const build = await node([path.join(SDK, 'build.mjs')]);
    if (build.code !== 0) throw new Error(`node sdk/build.mjs failed:\n${build.output}`);
    consumer = consumerProject();
  }, 120_000);
  afterAll(() => {
    if (consumer) fs.rmSync(consumer, { recursive: true, force: true });
  });

  it('is declared as a dual ESM/CJS package with no dependencies', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(SDK, 'package.json'), 'utf8'));
    expect(pkg).toMatchObject({ name: '@crc-rates/sdk', version: '1.0.0', type: 'commonjs', sideEffects: false });
    expect(pkg.exports['.']).toEqual({
      import: { types: './dist/index.d.mts', default: './dist/index.mjs' },
      require: { types: './dist/index.d.ts', default: './dist/index.js' },
    });
    expect(pkg.dependencies).toBeUndefined();
    expect(pkg.peerDependencies).toBeUndefined();
    // Built by npm itself when packed or installed from a path or a git repository (install.test.ts).
    expect(pkg.scripts.prepare).toBe('node build.mjs');
    expect(pkg.files).toEqual(['dist', 'README.md']);
    // Its build tools, for a git dependency prepared in sdk/ alone: the repository's own versions.
    const root = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
    expect(Object.keys(pkg.devDependencies).sort()).toEqual(['esbuild', 'typescript', 'zod']);
    for (const [name, range] of Object.entries(pkg.devDependencies))
      expect([name, range]).toEqual([name, root.devDependencies[name] ?? root.dependencies[name]]);
    for (const file of ['index.js', 'index.mjs', 'index.d.ts', 'index.d.mts', 'types.d.ts', 'types.d.mts']) {
      expect(fs.existsSync(path.join(DIST, file))).toBe(true);
    }
  });

  it('bundles import nothing and declarations refer to nothing outside dist', () => {
    const cjs = fs.readFileSync(path.join(DIST, 'index.js'), 'utf8');
    const esm = fs.readFileSync(path.join(DIST, 'index.mjs'), 'utf8');
    expect(cjs).not.toMatch(/\brequire\(/);
    expect(esm).not.toMatch(/^\s*import\s/m);
    expect(esm).not.toMatch(/\bimport\(/);
    for (const file of fs.readdirSync(DIST).filter((f) => /\.d\.m?ts$/.test(f))) {
      const text = fs.readFileSync(path.join(DIST, file), 'utf8');
      const specifiers = [...text.matchAll(/(?:from\s+|import\s*\(\s*)['"]([^'"]+)['"]/g)].map((m) => m[1] as string);
      for (const specifier of specifiers) expect(specifier).toMatch(/^\.\/[\w-]+(\.generated)?\.m?js$/);
      expect(text).not.toContain('zod');
    }
  });

  it.each([
    ['ESM under node16/nodenext', 'usage.mts', { module: 'NodeNext', moduleResolution: 'NodeNext' }, 'index.d.mts'],
    ['CJS under node16/nodenext', 'usage.cts', { module: 'NodeNext', moduleResolution: 'NodeNext' }, 'index.d.ts'],
    ['a bundler', 'usage.ts', { module: 'ESNext', moduleResolution: 'Bundler' }, 'index.d.mts'],
    ['classic node10 resolution', 'usage.ts', { module: 'CommonJS', moduleResolution: 'Node10' }, 'index.d.ts'],
  ])(
    'usage.ts type-checks against the built declarations: %s',
    (_name, file, options, entry) => {
      const outcome = check(consumer, file, options);
      expect(outcome.report).toBe('');
      expect(outcome.files).toContain(path.join(consumer, 'node_modules/@crc-rates/sdk/dist', entry));
      // Nothing from the repository: the declarations stand alone.
      expect(outcome.files.filter((f) => f.startsWith(ROOT) && !f.includes('/node_modules/typescript/lib/'))).toEqual([]);
    },
    120_000,
  );

  it("the runtime's own fetch fits the fetch option (DOM lib and Node types)", async () => {
    fs.writeFileSync(
      path.join(consumer, 'fetch.ts'),
      [
        "import { ExchangeRateClient } from '@crc-rates/sdk';",
        "export const global = new ExchangeRateClient({ apiKey: 'k', fetch: globalThis.fetch });",
        "export const wrapped = new ExchangeRateClient({ apiKey: 'k', fetch: (url, init) => fetch(url, init) });",
      ].join('\n'),
    );
    const dom = check(consumer, 'fetch.ts', { module: 'NodeNext', moduleResolution: 'NodeNext', lib: ['ES2022', 'DOM'] });
    expect(dom.report).toBe('');
    const nodeTypes = check(consumer, 'fetch.ts', {
      module: 'NodeNext',
      moduleResolution: 'NodeNext',
      types: ['node'],
      typeRoots: [path.join(ROOT, 'node_modules/@types')],
    });
    expect(nodeTypes.report).toBe('');
  }, 120_000);

  it('loads with require() and import(), and both builds work against a server', async () => {
    const stub = await startStub([ok(RECORD)]);
    try {
      const script = (load: string) => `
        ${load}
          .then(async (sdk) => {
            if (typeof sdk.ExchangeRateClient !== 'function') throw new Error('ExchangeRateClient is ' + typeof sdk.ExchangeRateClient);
            if (typeof sdk.ExchangeRateError !== 'function') throw new Error('no ExchangeRateError');
            const client = new sdk.ExchangeRateClient({ apiKey: 'k', baseUrl: ${JSON.stringify(stub.api)} });
            const latest = await client.getLatest();
            const day = sdk.costaRicaDay(new Date('2025-01-16T03:00:00Z'));
            console.log(JSON.stringify({ latest, day }));
          })
          .catch((error) => { console.error(error); process.exit(1); });`;
      // Far from Costa Rica, so a day taken from the process's own zone would show.
      const env = { ...process.env, TZ: 'Pacific/Kiritimati' };
      const cjs = await node(['-e', script(`Promise.resolve(require(${JSON.stringify(path.join(DIST, 'index.js'))}))`)], { env });
      const esm = await node(['--input-type=module', '-e', script(`import(${JSON.stringify(path.join(DIST, 'index.mjs'))})`)], { env });
      const installed = await node(['-e', script(`Promise.resolve(require('@crc-rates/sdk'))`)], { cwd: consumer, env });
      const installedEsm = await node(['--input-type=module', '-e', script(`import('@crc-rates/sdk')`)], { cwd: consumer, env });
      for (const outcome of [cjs, esm, installed, installedEsm]) {
        expect(outcome.code).toBe(0);
        expect(JSON.parse(outcome.output)).toEqual({ latest: RECORD, day: '2025-01-15' });
      }
    } finally {
      await stub.close();
    }
  }, 120_000);
});
