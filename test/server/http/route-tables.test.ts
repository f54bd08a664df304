/**
 * The route tables people read (the README's and the API guide's "Endpoints at a glance") are
 * written by hand for their examples and wording; this keeps their list of paths the registry's.
 */
import fs from 'node:fs';
import path from 'node:path';
import { routeList } from '../../../server/route-list';
import { MCP_PATH } from '../../../server/mcp/http';

const ROOT = path.join(__dirname, '../../..');
/** Served by the app beside the registry's routes: the documents that describe them, and MCP. */
const BESIDE_THE_REGISTRY = ['/openapi.json', '/postman.json', MCP_PATH];

/** The lines of a markdown file from a heading to the next heading of the same level. */
function section(file: string, heading: string): string {
  const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
  const start = text.indexOf(`\n${heading}\n`);
  if (start < 0) throw new Error(`${file} has no "${heading}"`);
  const level = heading.split(' ')[0];
  const end = text.indexOf(`\n${level} `, start + heading.length + 2);
  return text.slice(start, end < 0 ? undefined : end);
}

/** The API paths named in the first cell of each table row (`/path?query`, `POST /mcp`). */
function tablePaths(markdown: string): string[] {
  const paths = markdown
    .split('\n')
    .filter((line) => line.startsWith('| ') && !/^\|\s*-/.test(line))
    .flatMap((line) => [...(line.split('|')[1] ?? '').matchAll(/`(?:[A-Z]+ )?(\/[^`?\s]*)[^`]*`/g)].map((match) => match[1]));
  return [...new Set(paths)].sort();
}

const registry = [...routeList().map((route) => route.path), ...BESIDE_THE_REGISTRY].sort();

describe('the route tables of the docs', () => {
  it("the README's table names exactly the registry's routes", () => {
    expect(tablePaths(section('README.md', '## The API'))).toEqual(registry);
  });

  it('the API guide\'s "Endpoints at a glance" names exactly the registry\'s routes', () => {
    expect(tablePaths(section('docs/api.md', '## Endpoints at a glance'))).toEqual(registry);
  });
});
