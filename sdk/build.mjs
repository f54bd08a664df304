#!/usr/bin/env node
/**
 * Builds @crc-rates/sdk into sdk/dist: `node sdk/build.mjs` from the repository root, `npm run
 * build` in sdk/, or npm's `prepare` when the SDK is packed or installed from a path or a git
 * repository.
 *
 *   dist/index.mjs   ESM bundle            dist/index.d.mts, dist/*.d.mts   its declarations
 *   dist/index.js    CommonJS bundle       dist/index.d.ts,  dist/*.d.ts    its declarations
 *
 * The SDK reads the API's record types from the repository's `shared/`, where they are derived
 * from zod schemas; a published package can depend on neither. So the declarations of
 * `src/types.ts` (the SDK's one door to `shared/`) are not emitted by tsc but generated from what
 * the checker resolves each exported type to: plain interfaces and unions, written out in full,
 * that need nothing outside dist. The build then type-checks its own declarations on their own
 * (no DOM, no Node types) and fails if they do not stand alone.
 *
 * Its tools (esbuild, TypeScript, and zod for the types of shared/) are the repository's own
 * when the repository is installed; where only sdk/ is (a git dependency prepared in its
 * directory), they are the SDK's devDependencies, the same versions.
 */
import { createRequire } from 'node:module';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const sdkDir = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(sdkDir, '..');
const srcDir = path.join(sdkDir, 'src');
const distDir = path.join(sdkDir, 'dist');
const entry = path.join(srcDir, 'index.ts');
const typesModule = path.join(srcDir, 'types.ts');

// Resolved from sdk/ upwards, whatever the working directory: sdk/node_modules, then the root's.
const fromSdk = createRequire(path.join(sdkDir, 'package.json'));
function tool(name) {
  try {
    return fromSdk(name);
  } catch (error) {
    if (error?.code !== 'MODULE_NOT_FOUND') throw error;
    console.error(`sdk build: "${name}" is not installed: run \`npm install\` in the repository root (or in sdk/), then build again`);
    process.exit(1);
  }
}
const esbuild = tool('esbuild');
const ts = tool('typescript');

const pkg = JSON.parse(fs.readFileSync(path.join(sdkDir, 'package.json'), 'utf8'));
const banner = `/* ${pkg.name} ${pkg.version} */`;

function fail(message) {
  console.error(`sdk build: ${message}`);
  process.exit(1);
}

function formatDiagnostics(diagnostics) {
  return ts.formatDiagnostics(diagnostics, {
    getCanonicalFileName: (f) => f,
    getCurrentDirectory: () => repoRoot,
    getNewLine: () => '\n',
  });
}

// ---------------------------------------------------------------------------------------------
// JavaScript: two bundles of the same source. Nothing may come from node_modules (zero runtime
// dependencies); code from shared/ would be inlined, but only types are taken from there today.

async function bundle(format, outfile) {
  const result = await esbuild.build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    format,
    platform: 'neutral',
    target: 'es2022',
    tsconfig: path.join(sdkDir, 'tsconfig.json'),
    banner: { js: banner },
    legalComments: 'none',
    metafile: true,
    logLevel: 'warning',
  });
  const external = Object.keys(result.metafile.inputs).filter((input) => input.includes('node_modules'));
  if (external.length > 0) fail(`the ${format} bundle pulls in dependencies: ${external.join(', ')}`);
}

// ---------------------------------------------------------------------------------------------
// Declarations.

function readTsconfig() {
  const configPath = path.join(sdkDir, 'tsconfig.json');
  const read = ts.readConfigFile(configPath, ts.sys.readFile);
  if (read.error) fail(formatDiagnostics([read.error]));
  const parsed = ts.parseJsonConfigFileContent(read.config, ts.sys, sdkDir, undefined, configPath);
  if (parsed.errors.length > 0) fail(formatDiagnostics(parsed.errors));
  return parsed.options;
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/**
 * `export interface …` / `export type …` for every export of src/types.ts, written out from the
 * checker's resolved types. A nested type that is itself one of the exports is referred to by
 * name (Analytics.buy is a SideAnalytics, Conversion.from a Currency).
 */
function generateTypes(checker, sourceFile) {
  const moduleSymbol = checker.getSymbolAtLocation(sourceFile);
  const entries = checker.getExportsOfModule(moduleSymbol).map((exported) => {
    const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
    if (symbol.flags & ts.SymbolFlags.Value) fail(`src/types.ts may only export types, but "${exported.name}" is a value`);
    return { name: exported.name, symbol, type: checker.getDeclaredTypeOfSymbol(symbol) };
  });
  const names = new Map();
  for (const { name, type } of entries) if (!names.has(type)) names.set(type, name);

  const docComment = (symbol, indent) => {
    const text = ts.displayPartsToString(symbol.getDocumentationComment(checker)).trim();
    if (!text) return '';
    const lines = text.split('\n');
    if (lines.length === 1) return `${indent}/** ${lines[0]} */\n`;
    return `${indent}/**\n${lines.map((l) => `${indent} * ${l}`.trimEnd()).join('\n')}\n${indent} */\n`;
  };

  const SIMPLE =
    ts.TypeFlags.String |
    ts.TypeFlags.Number |
    ts.TypeFlags.Boolean |
    ts.TypeFlags.BigInt |
    ts.TypeFlags.Null |
    ts.TypeFlags.Undefined |
    ts.TypeFlags.Unknown |
    ts.TypeFlags.Never |
    ts.TypeFlags.StringLiteral |
    ts.TypeFlags.NumberLiteral |
    ts.TypeFlags.BooleanLiteral;

  const objectBody = (type, indent, owner) => {
    if (checker.getSignaturesOfType(type, ts.SignatureKind.Call).length > 0 || checker.getIndexInfosOfType(type).length > 0) {
      fail(`cannot write out ${checker.typeToString(type)} (in ${owner}): only plain records are supported`);
    }
    const inner = `${indent}  `;
    const lines = checker.getPropertiesOfType(type).map((prop) => {
      const optional = (prop.flags & ts.SymbolFlags.Optional) !== 0;
      const propType = checker.getTypeOfSymbol(prop);
      const where = `${owner}.${prop.name}`;
      // `x?: T` reads back as T | undefined: write T (the `?` says the rest).
      const printed =
        optional && propType.flags & ts.TypeFlags.Union && !names.has(propType)
          ? printUnion(
              propType.types.filter((t) => !(t.flags & ts.TypeFlags.Undefined)),
              inner,
              where,
            )
          : print(propType, inner, where);
      const key = IDENTIFIER.test(prop.name) ? prop.name : JSON.stringify(prop.name);
      return `${docComment(prop, inner)}${inner}${key}${optional ? '?' : ''}: ${printed};`;
    });
    return `{\n${lines.join('\n')}\n${indent}}`;
  };

  function printUnion(types, indent, owner) {
    let members = [...types];
    const hasTrue = members.some((t) => t.flags & ts.TypeFlags.BooleanLiteral && checker.typeToString(t) === 'true');
    const hasFalse = members.some((t) => t.flags & ts.TypeFlags.BooleanLiteral && checker.typeToString(t) === 'false');
    const parts = [];
    if (hasTrue && hasFalse) {
      members = members.filter((t) => !(t.flags & ts.TypeFlags.BooleanLiteral));
      parts.push('boolean');
    }
    // null last, as people write it.
    members.sort((a, b) => Number((a.flags & ts.TypeFlags.Null) !== 0) - Number((b.flags & ts.TypeFlags.Null) !== 0));
    for (const member of members) parts.push(print(member, indent, owner));
    return parts.join(' | ');
  }

  function print(type, indent, owner, self) {
    const named = names.get(type);
    if (named && named !== self) return named;
    if (type.flags & ts.TypeFlags.Union) return printUnion(type.types, indent, owner);
    if (type.flags & SIMPLE) return checker.typeToString(type);
    if (checker.isArrayType(type)) {
      const [element] = checker.getTypeArguments(type);
      const printed = print(element, indent, owner);
      const item = element.flags & ts.TypeFlags.Union && !names.has(element) ? `(${printed})` : printed;
      return type.symbol?.name === 'ReadonlyArray' ? `readonly ${item}[]` : `${item}[]`;
    }
    if (type.flags & (ts.TypeFlags.Object | ts.TypeFlags.Intersection)) return objectBody(type, indent, owner);
    fail(`cannot write out ${checker.typeToString(type)} (in ${owner})`);
  }

  const blocks = entries.map(({ name, symbol, type }) => {
    const doc = docComment(symbol, '');
    const isRecord = !(type.flags & ts.TypeFlags.Union) && type.flags & (ts.TypeFlags.Object | ts.TypeFlags.Intersection) && !checker.isArrayType(type);
    return isRecord ? `${doc}export interface ${name} ${objectBody(type, '', name)}` : `${doc}export type ${name} = ${print(type, '', name, name)};`;
  });
  return [
    "// Generated by build.mjs from the types the server itself returns (the repository's shared/).",
    '// Written out in full so that this package needs nothing else.',
    '',
    blocks.join('\n\n'),
    '',
  ].join('\n');
}

/** Relative specifiers with the extension each declaration flavour resolves under node16/bundler. */
function withExtensions(text, extension, file) {
  return text.replace(/((?:from\s+|import\s*\(\s*)['"])(\.{1,2}\/[^'"]+)(['"])/g, (_, before, specifier, after) => {
    if (specifier.startsWith('../')) fail(`${file} refers outside the package: ${specifier}`);
    return `${before}${specifier.replace(/\.(?:js|mjs|cjs|ts)$/, '')}${extension}${after}`;
  });
}

/**
 * A compiler host whose module resolution falls back to sdk/'s own packages: shared/ lies outside
 * sdk/, so where only sdk/ is installed, "zod" is not found from there by the usual lookup.
 */
function compilerHost(options) {
  const host = ts.createCompilerHost(options);
  const cache = ts.createModuleResolutionCache(repoRoot, (f) => f, options);
  host.resolveModuleNameLiterals = (literals, containingFile, redirectedReference, compilerOptions) =>
    literals.map((literal) => {
      const found = ts.resolveModuleName(literal.text, containingFile, compilerOptions, host, cache, redirectedReference);
      if (found.resolvedModule || !path.relative(sdkDir, containingFile).startsWith('..')) return found;
      return ts.resolveModuleName(literal.text, entry, compilerOptions, host, cache, redirectedReference);
    });
  return host;
}

function emitDeclarations() {
  const options = {
    ...readTsconfig(),
    noEmit: false,
    declaration: true,
    emitDeclarationOnly: true,
    rootDir: repoRoot,
    outDir: path.join(os.tmpdir(), 'crc-rates-sdk-declarations'),
    declarationMap: false,
    sourceMap: false,
  };
  const program = ts.createProgram({ rootNames: [entry], options, host: compilerHost(options) });
  const diagnostics = ts.getPreEmitDiagnostics(program);
  if (diagnostics.length > 0) fail(`the source does not type-check:\n${formatDiagnostics(diagnostics)}`);

  const outSrc = path.join(options.outDir, path.relative(repoRoot, srcDir));
  const declarations = new Map();
  const result = program.emit(
    undefined,
    (fileName, text) => {
      const relative = path.relative(outSrc, fileName);
      // Declarations of shared/ are not shipped: types.d.ts below stands in for them.
      if (relative.startsWith('..') || path.isAbsolute(relative)) return;
      declarations.set(relative.replace(/\.d\.ts$/, ''), text);
    },
    undefined,
    true,
  );
  if (result.emitSkipped || result.diagnostics.length > 0) fail(`declaration emit failed:\n${formatDiagnostics(result.diagnostics)}`);

  const typesName = path.relative(srcDir, typesModule).replace(/\.ts$/, '');
  if (!declarations.has(typesName)) fail('no declarations were emitted for src/types.ts');
  declarations.set(typesName, generateTypes(program.getTypeChecker(), program.getSourceFile(typesModule)));

  for (const [name, text] of declarations) {
    for (const [suffix, extension] of [
      ['.d.ts', '.js'],
      ['.d.mts', '.mjs'],
    ]) {
      const file = path.join(distDir, `${name}${suffix}`);
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, withExtensions(text, extension, file));
    }
  }
  return [...declarations.keys()];
}

/** The declarations must stand alone: no DOM, no Node types, no skipLibCheck, nothing outside dist. */
function checkDeclarations() {
  const files = [path.join(distDir, 'index.d.ts'), path.join(distDir, 'index.d.mts')];
  const program = ts.createProgram({
    rootNames: files,
    options: {
      strict: true,
      noEmit: true,
      skipLibCheck: false,
      types: [],
      lib: ['lib.es2022.d.ts'],
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.Node16,
      moduleResolution: ts.ModuleResolutionKind.Node16,
    },
  });
  const diagnostics = ts.getPreEmitDiagnostics(program);
  if (diagnostics.length > 0) fail(`the built declarations do not stand alone:\n${formatDiagnostics(diagnostics)}`);
  const outside = program
    .getSourceFiles()
    .map((f) => path.resolve(f.fileName))
    .filter((f) => !f.startsWith(distDir + path.sep) && !f.includes(`${path.sep}typescript${path.sep}lib${path.sep}`));
  if (outside.length > 0) fail(`the built declarations reach outside dist: ${outside.join(', ')}`);
}

const started = Date.now();
fs.rmSync(distDir, { recursive: true, force: true });
fs.mkdirSync(distDir, { recursive: true });
await Promise.all([bundle('esm', path.join(distDir, 'index.mjs')), bundle('cjs', path.join(distDir, 'index.js'))]);
const modules = emitDeclarations();
checkDeclarations();
console.log(
  `sdk build: ${pkg.name}@${pkg.version} → ${path.relative(process.cwd(), distDir) || '.'} ` +
    `(index.mjs, index.js, ${modules.length} declaration modules ×2) in ${Date.now() - started} ms`,
);
