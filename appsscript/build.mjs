#!/usr/bin/env node
/**
 * Builds the Apps Script project that `clasp push` uploads (appsscript/dist/):
 *
 * - Code.js: `src/main.ts` bundled by esbuild as an IIFE under the private global `CrcRates`,
 *   followed by one top-level stub per export. Apps Script only sees top-level function
 *   declarations and rejects import/export; esbuild drops comments, so each stub gets the JSDoc
 *   of its source function (that is where Sheets reads `@customfunction` and the help text).
 * - Sidebar.html: sidebar.html with its CSS and its bundled script inlined.
 * - appsscript.json: the manifest, with the API origin in `urlFetchWhitelist`.
 *
 * Options:
 * - `--out DIR`: where to write (default appsscript/dist).
 * - `--base-url https://rates.example.com`: a self-hosted server as the default address of this
 *   copy of the add-on (`/api/v1` is added to a bare server address) and as the only entry of
 *   `urlFetchWhitelist`. The environment variable `CRC_RATES_PUBLIC_URL` does the same.
 * - `--allow https://other.example.org` (repeatable, or comma-separated): more servers the sheet
 *   may be pointed at in Settings → Advanced. The environment variable `CRC_RATES_URL_ALLOWLIST`
 *   does the same.
 * Apps Script only fetches https addresses that the manifest allows, so both must be https.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';
import { build } from 'esbuild';
import ts from 'typescript';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
const src = path.join(here, 'src');
const GLOBAL = 'CrcRates';

function fail(message) {
  console.error(`addon:build: ${message}`);
  process.exit(1);
}

/** `--name value` and `--name=value`, every occurrence; an option with no value is an error. */
function options(argv) {
  const known = new Set(['out', 'base-url', 'allow']);
  const found = { out: [], 'base-url': [], allow: [] };
  for (let i = 0; i < argv.length; i++) {
    const m = /^--([a-z-]+)(?:=(.*))?$/.exec(argv[i]);
    if (!m || !known.has(m[1])) fail(`unknown argument "${argv[i]}" (options: --out DIR, --base-url https://…, --allow https://…)`);
    const value = m[2] ?? argv[++i];
    if (value === undefined || value.startsWith('--')) fail(`--${m[1]} needs a value`);
    found[m[1]].push(value);
  }
  return found;
}

const HTTPS = /^(https:\/\/[a-z0-9.-]+(?::\d{1,5})?)(\/[^?#\s]*)?$/i;

/** `https://host/api/v1` → `https://host/` (a whitelist prefix needs https and a path). */
function allowPrefix(url, name) {
  const m = HTTPS.exec(url.trim());
  if (!m) fail(`${name} must be an https:// address (got "${url}")`);
  return `${m[1].toLowerCase()}/`;
}

/** The API address as the add-on uses it: `https://host/api/v1`, no trailing slash; a bare server gets `/api/v1`. */
function apiBase(url, name) {
  const m = HTTPS.exec(url.trim());
  if (!m) fail(`${name} must be an https:// address (got "${url}")`);
  const rest = (m[2] ?? '').replace(/\/+$/, '');
  return `${m[1].toLowerCase()}${rest === '' ? '/api/v1' : rest}`;
}

// ---- Entry points: the exports of main.ts, with their parameters and JSDoc from the source.

function parse(file) {
  return ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
}

function jsDocOf(source, node) {
  const ranges = ts.getLeadingCommentRanges(source.text, node.getFullStart()) ?? [];
  const docs = ranges.map((r) => source.text.slice(r.pos, r.end)).filter((c) => c.startsWith('/**'));
  return docs.at(-1) ?? null;
}

function entryPoints() {
  const main = parse(path.join(src, 'main.ts'));
  const entries = [];
  for (const statement of main.statements) {
    if (!ts.isExportDeclaration(statement) || !statement.moduleSpecifier || !statement.exportClause) {
      if (!ts.isImportDeclaration(statement)) fail(`main.ts may only re-export entry points: ${statement.getText(main).slice(0, 60)}`);
      continue;
    }
    const file = path.join(src, `${statement.moduleSpecifier.text}.ts`);
    const module = parse(file);
    for (const spec of statement.exportClause.elements) {
      const name = spec.name.text;
      const fn = module.statements.find((s) => ts.isFunctionDeclaration(s) && s.name?.text === (spec.propertyName ?? spec.name).text);
      if (!fn) fail(`${name} is not a function declared in ${path.relative(root, file)}`);
      const doc = jsDocOf(module, fn);
      if (!doc) fail(`${name} in ${path.relative(root, file)} has no JSDoc: Sheets and the script editor show it`);
      const params = fn.parameters.map((p) => p.name.getText(module));
      entries.push({ name, params, doc, file: path.relative(root, file) });
    }
  }
  return entries;
}

function stub({ name, params, doc }) {
  const list = params.join(', ');
  return `${doc}\nfunction ${name}(${list}) {\n  return ${GLOBAL}.${name}(${list});\n}\n`;
}

// ---- Bundles.

function checkInputs(metafile, what) {
  for (const input of Object.keys(metafile.inputs)) {
    const rel = input.replace(/\\/g, '/');
    const allowed = rel.startsWith('appsscript/src/') || rel.startsWith('shared/');
    // shared/schemas.ts pulls zod in; the add-on takes only types from it (import type).
    if (!allowed || rel === 'shared/schemas.ts' || rel.includes('node_modules')) {
      fail(`${what} may only bundle appsscript/src and zod-free shared modules, but it includes ${rel}`);
    }
  }
}

async function bundle(entry, options) {
  const result = await build({
    absWorkingDir: root,
    entryPoints: [entry],
    bundle: true,
    write: false,
    metafile: true,
    format: 'iife',
    target: 'es2020',
    charset: 'utf8',
    legalComments: 'none',
    logLevel: 'silent',
    ...options,
  });
  checkInputs(result.metafile, entry);
  return result.outputFiles[0].text;
}

async function main() {
  const args = options(process.argv.slice(2));
  if (args.out.length > 1 || args['base-url'].length > 1) fail('--out and --base-url may be given once');
  const out = args.out[0] ? path.resolve(args.out[0]) : path.join(here, 'dist');
  const manifest = JSON.parse(readFileSync(path.join(here, 'appsscript.json'), 'utf8'));
  const [baseName, baseUrl] = args['base-url'][0]
    ? ['--base-url', args['base-url'][0]]
    : ['CRC_RATES_PUBLIC_URL', process.env.CRC_RATES_PUBLIC_URL?.trim() || null];
  const define = {};
  if (baseUrl) {
    define.__CRC_RATES_PUBLIC_URL__ = JSON.stringify(apiBase(baseUrl, baseName));
    manifest.urlFetchWhitelist = [allowPrefix(baseUrl, baseName)];
  }
  const extras = [
    ...args.allow.flatMap((a) => a.split(',')).map((url) => [url, '--allow']),
    ...(process.env.CRC_RATES_URL_ALLOWLIST ?? '').split(',').map((url) => [url, 'CRC_RATES_URL_ALLOWLIST']),
  ].filter(([url]) => url.trim());
  for (const [extra, name] of extras) {
    manifest.urlFetchWhitelist = [...new Set([...(manifest.urlFetchWhitelist ?? []), allowPrefix(extra, name)])];
  }

  const code = await bundle('appsscript/src/main.ts', { globalName: GLOBAL, platform: 'neutral', define });
  const entries = entryPoints();

  // The stubs and the bundle's exports must be the same set of names.
  const exported = Object.keys(vm.runInNewContext(`${code}\n;${GLOBAL}`, {}, { timeout: 5000 })).sort();
  const stubbed = entries.map((e) => e.name).sort();
  if (exported.join() !== stubbed.join()) fail(`exports (${exported}) and stubs (${stubbed}) differ`);

  const codeJs = [
    '// Generated by appsscript/build.mjs from appsscript/src: edit the TypeScript, not this file.',
    code.trimEnd(),
    '',
    '// ---- Entry points Apps Script calls by name (custom functions, triggers, sidebar).',
    '',
    entries.map(stub).join('\n'),
  ].join('\n');
  if (/^\s*(?:import|export)\b/m.test(codeJs)) fail('Code.js contains an import or export statement');

  const sidebarJs = await bundle('appsscript/src/sidebar/sidebar.ts', { platform: 'browser' });
  const css = readFileSync(path.join(src, 'sidebar', 'sidebar.css'), 'utf8');
  for (const [what, text] of [
    ['sidebar script', sidebarJs],
    ['sidebar CSS', css],
  ]) {
    // The sidebar is an HtmlService template: a stray `<?` would be read as a scriptlet.
    if (text.includes('<?')) fail(`${what} contains "<?", which HtmlService would read as a scriptlet`);
  }
  const html = readFileSync(path.join(src, 'sidebar', 'sidebar.html'), 'utf8')
    .replace('/* @inline sidebar.css */', () => css.trim())
    .replace('/* @inline sidebar.js */', () => sidebarJs.trim().replace(/<\/(script)/gi, '<\\/$1'));
  if (html.includes('@inline')) fail('sidebar.html has an @inline marker that was not filled');

  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  writeFileSync(path.join(out, 'Code.js'), codeJs);
  writeFileSync(path.join(out, 'Sidebar.html'), html);
  writeFileSync(path.join(out, 'appsscript.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  console.log(`addon:build: ${path.relative(process.cwd(), out) || '.'}/ Code.js (${entries.length} entry points), Sidebar.html, appsscript.json`);
  console.log(
    `addon:build: default API address ${baseUrl ? apiBase(baseUrl, baseName) : 'the public service'}; urlFetchWhitelist ${manifest.urlFetchWhitelist.join(', ')}`,
  );
}

main().catch((error) => fail(error?.stack ?? String(error)));
