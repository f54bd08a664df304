/**
 * The entries scripts/build.mjs compiles (`ENTRIES`: name → source file), read from its text: the
 * script is an ES module, which the tests (compiled to CommonJS) cannot import.
 */
import fs from 'node:fs';
import path from 'node:path';

export function buildEntries(): Record<string, string> {
  const text = fs.readFileSync(path.join(__dirname, '../../scripts/build.mjs'), 'utf8');
  const block = /export const ENTRIES = \{([^}]*)\}/.exec(text)?.[1] ?? '';
  return Object.fromEntries([...block.matchAll(/(\w+): '([^']+)'/g)].map(([, name, file]) => [name as string, file as string]));
}
