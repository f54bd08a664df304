/**
 * `format` on every route of the API: a value the route has no form for (`xml` anywhere, `csv`
 * where there is no CSV) is a 400 that names `format` and lists what the route accepts, never a
 * JSON answer the client did not ask for; also when the key comes as `key=`, which a client asking
 * for CSV sends. `format=json` is the default everywhere.
 */
import fs from 'node:fs';
import path from 'node:path';
import { rate, startTestApp, type TestApp } from '../../helpers/app';
import { CSV_PATHS } from './csv-paths';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ clock: () => new Date('2025-02-10T18:00:00Z') });
  await t.seed([rate('2025-02-08', 503.1, 509.95), rate('2025-02-09', 503.25, 510)]);
});
afterAll(() => t.close());

/** The route's path with its example parameters, so that `format` is the only thing wrong. */
function withExample(path: string, example: Record<string, string> | undefined, extra: string): string {
  const pairs = [...Object.entries(example ?? {}).map(([name, value]) => `${name}=${encodeURIComponent(value)}`), extra];
  return `${path}?${pairs.join('&')}`;
}

const accepted = (formats: Readonly<Record<string, unknown>>) => ['json', ...Object.keys(formats)].join(', ');

it('the CSV form is on exactly the routes that answer records, periods, a conversion or institutions', () => {
  const withCsv = t.app.routes.filter((route) => route.formats.csv).map((route) => route.path);
  expect(withCsv.sort()).toEqual([...CSV_PATHS].sort());
});

it('an unknown format is a 400 naming format and the accepted values, on every route', async () => {
  expect(t.app.routes.length).toBeGreaterThan(15);
  for (const route of t.app.routes) {
    const path = withExample(route.path, route.example, 'format=xml');
    const res = await t.get(path);
    expect([path, res.status, res.body]).toEqual([
      path,
      400,
      { success: false, error: 'BAD_REQUEST', message: `Parameter "format" must be one of ${accepted(route.formats)} (got "xml")` },
    ]);
  }
});

it('format=csv on a route with no CSV form is the same 400, with the key in the header or as key=', async () => {
  const jsonOnly = t.app.routes.filter((route) => !route.formats.csv);
  expect(jsonOnly.map((route) => route.path)).toEqual(expect.arrayContaining(['/exchange-rate/analytics', '/insights', '/usage', '/health']));
  for (const route of jsonOnly) {
    const message = `Parameter "format" must be one of ${accepted(route.formats)} (got "csv")`;
    const byHeader = withExample(route.path, route.example, 'format=csv');
    const byQuery = `${byHeader}&key=${t.key}`;
    for (const [path, headers] of [
      [byHeader, {}],
      [byQuery, { 'x-api-key': '' }],
    ] as const) {
      const res = await t.get(path, headers);
      expect([path, res.status, res.body]).toEqual([path, 400, { success: false, error: 'BAD_REQUEST', message }]);
    }
  }
});

it('format=json is accepted everywhere', async () => {
  for (const route of t.app.routes) {
    const path = withExample(route.path, route.example, 'format=JSON');
    const res = await t.get(path);
    // Some examples name days this database has no data for: a 404 is an answer too, a 400 is not.
    expect([path, res.status === 400, res.headers.get('content-type')]).toEqual([path, false, 'application/json; charset=utf-8']);
  }
});

/** The paths quoted in backticks in a text. */
const quotedPaths = (text: string) => [...text.matchAll(/`(\/[^`?]*)`/g)].map((m) => m[1]);

describe('the documents name the CSV routes from the route list', () => {
  it('the OpenAPI document: a text/csv answer on exactly those routes, and its description lists them', async () => {
    const doc = (await t.get('/openapi.json')).body as unknown as {
      info: { description: string };
      paths: Record<string, { get?: { responses: Record<string, { content?: Record<string, unknown> }> } }>;
    };
    const offering = Object.entries(doc.paths).filter(([, item]) => item.get?.responses['200']?.content?.['text/csv']);
    expect(offering.map(([path]) => path).sort()).toEqual([...CSV_PATHS].sort());
    const csvParagraph = doc.info.description.split('\n\n').find((p) => p.startsWith('**CSV.**')) ?? '';
    expect(quotedPaths(csvParagraph.split(';')[0] ?? '').sort()).toEqual([...CSV_PATHS].sort());
  });

  it('the API guide: the first paragraph of "CSV for spreadsheets" lists exactly those routes', () => {
    const guide = fs.readFileSync(path.join(__dirname, '../../../docs/api.md'), 'utf8');
    const start = guide.indexOf('\n### CSV for spreadsheets\n');
    expect(start).toBeGreaterThan(0);
    const paragraph = guide.slice(start).split('\n\n')[1] ?? '';
    expect(quotedPaths(paragraph).sort()).toEqual([...CSV_PATHS].sort());
  });

  it('llms.txt: the format=csv line lists exactly those routes', async () => {
    const text = await (await fetch(`${t.url}/llms.txt`)).text();
    const line = text.split('\n').find((l) => l.startsWith('- `format=csv`')) ?? '';
    expect(quotedPaths(line.split(':')[0] ?? '').sort()).toEqual([...CSV_PATHS].sort());
  });
});
