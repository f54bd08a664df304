/**
 * The server's layers only import downwards, SQL lives in store/ only, and the request state is
 * read through its type: read from the source files, so that a change that breaks one of these
 * rules fails here rather than in a reader's head.
 */
import fs from 'node:fs';
import path from 'node:path';
import { buildEntries } from '../helpers/build-entries';

const SERVER = path.join(__dirname, '../../server');

/**
 * Each layer's rank: a file may import from a layer of lower rank only (or its own). The files at
 * the top of server/ (the app, the runtime, config, errors, logger, the request state) and the
 * entry points (cli/, demo/) put the layers together or sit below all of them, and are not ranked.
 */
const RANK: Record<string, number> = {
  shared: 0,
  domain: 1,
  store: 2,
  sources: 2,
  access: 3,
  insights: 3,
  jobs: 3,
  http: 4,
  mcp: 5,
  site: 6,
};

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

/** The layer a path belongs to: its first folder under server/ (or `shared`), else null. */
function layerOf(file: string): string | null {
  const relative = path.relative(SERVER, file).split(path.sep);
  if (relative[0] === '..') return relative[1] === 'shared' ? 'shared' : null;
  return relative.length > 1 ? (relative[0] ?? null) : null;
}

/** The relative modules a file imports (statically, dynamically or as types), resolved. */
function importsOf(file: string, text: string): string[] {
  return [...text.matchAll(/(?:\bfrom|\bimport)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)].map((match) => path.resolve(path.dirname(file), match[1] as string));
}

/** The text without comments, so that a comment that names a rule does not break it. */
const withoutComments = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');

const files = sourceFiles(SERVER).map((file) => ({ file, name: path.relative(SERVER, file), text: fs.readFileSync(file, 'utf8') }));

it('finds the layers it ranks', () => {
  const found = new Set(files.map(({ file }) => layerOf(file)));
  for (const layer of Object.keys(RANK).filter((l) => l !== 'shared')) expect(found).toContain(layer);
});

it('imports only go downwards between the layers', () => {
  const upwards: string[] = [];
  for (const { file, name, text } of files) {
    const from = layerOf(file);
    if (from === null || RANK[from] === undefined) continue;
    for (const target of importsOf(file, text)) {
      const to = layerOf(target);
      if (to === null || to === from || RANK[to] === undefined) continue;
      if ((RANK[to] as number) >= (RANK[from] as number)) upwards.push(`${name} imports ${path.relative(SERVER, target)}`);
    }
  }
  expect(upwards).toEqual([]);
});

it('nothing under server/access imports from server/http', () => {
  const fromHttp = files.filter(({ file, text }) => layerOf(file) === 'access' && importsOf(file, text).some((target) => layerOf(target) === 'http'));
  expect(fromHttp.map(({ name }) => name)).toEqual([]);
});

it('SQL is written in server/store only', () => {
  const sql = /\.raw\(|\.query\(|['"`]\s*(?:SELECT|INSERT\s+INTO|UPDATE\s+\w+\s+SET|DELETE\s+FROM|LISTEN|NOTIFY|CREATE|ALTER|WITH)\b/;
  const outside = files.filter(({ file, text }) => layerOf(file) !== 'store' && sql.test(withoutComments(text)));
  expect(outside.map(({ name }) => name)).toEqual([]);
});

it('every read of ctx.state goes through the AppState type', () => {
  const untyped = files.flatMap(({ name, text }) =>
    withoutComments(text)
      .split('\n')
      .filter((line) => /ctx\.state\b/.test(line) && !/:\s*AppState\b/.test(line))
      .map((line) => `${name}: ${line.trim()}`),
  );
  expect(untyped).toEqual([]);
});

/** An import clause of types only: `{ type A, type B }`. */
const typesOnly = (clause: string) =>
  /^\{[^}]*\}$/.test(clause) &&
  clause
    .slice(1, -1)
    .split(',')
    .every((name) => name.trim() === '' || name.trim().startsWith('type '));

/**
 * The modules a file loads when it is loaded: its static imports and re-exports that bring a
 * value (not `import type`, nor braces of types only) and its imports for their effect alone;
 * relative ones resolved to their file, packages by name.
 */
function loadedBy(file: string, text: string): string[] {
  const statements = withoutComments(text).matchAll(/^(?:import|export)\s+(?!type\b)(?:([^;]*?)\s*from\s*)?'([^']+)'/gm);
  return [...statements]
    .filter(([, clause]) => clause === undefined || !typesOnly(clause))
    .map(([, , specifier]) => {
      if (!(specifier as string).startsWith('.')) return specifier as string;
      const base = path.resolve(path.dirname(file), specifier as string);
      return [`${base}.ts`, path.join(base, 'index.ts')].find((candidate) => fs.existsSync(candidate)) ?? base;
    });
}

/** The chains of value imports from `entry` that reach a package whose name starts with `prefix`. */
function chainsTo(entry: string, prefix: string): { chains: string[]; seen: number } {
  const texts = new Map(files.map(({ file, text }) => [file, text]));
  const seen = new Set<string>();
  const chains: string[] = [];
  const visit = (file: string, trail: string[]): void => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = texts.get(file) ?? (file.endsWith('.ts') && fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined);
    if (text === undefined) return;
    for (const target of loadedBy(file, text)) {
      if (target.startsWith(prefix)) chains.push([...trail, path.relative(SERVER, file), target].join(' → '));
      else if (target.startsWith('/')) visit(target, [...trail, path.relative(SERVER, file)]);
    }
  };
  visit(path.join(SERVER, entry), []);
  return { chains, seen: seen.size };
}

it('the app loads the MCP SDK when the first MCP POST comes, not with itself', () => {
  const { chains, seen } = chainsTo('app.ts', '@modelcontextprotocol/');
  expect(seen).toBeGreaterThan(50);
  expect(chains).toEqual([]);
});

it('the server and the commands load ioredis only when REDIS_URL is set, not with themselves', () => {
  // Every entry the build compiles: the server, the demo and each command.
  const entries = Object.values(buildEntries());
  expect(entries).toContain('server/main.ts');
  for (const entry of entries.map((file) => path.relative('server', file))) {
    const { chains, seen } = chainsTo(entry, 'ioredis');
    expect({ entry, chains }).toEqual({ entry, chains: [] });
    expect(seen).toBeGreaterThan(20);
  }
});
