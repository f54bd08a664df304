/**
 * `npm run addon:template`: its plan with --dry-run (no credentials), and the real run against a
 * local fake of Google's OAuth, Sheets, Apps Script and Drive endpoints that answers in their
 * shapes: made once, remembered, finished by the next run after a failure half-way, and the
 * script's files are the add-on's own build.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

jest.setTimeout(120_000);

const ROOT = path.resolve(__dirname, '../..');
const SCRIPT = path.join(ROOT, 'appsscript/template.mjs');

interface Seen {
  method: string;
  path: string;
  authorization: string;
  body: string;
}

interface FakeGoogle {
  url: string;
  seen: Seen[];
  /** Paths to answer 403 once, as Google does when the Apps Script API is off. */
  failOnce: Set<string>;
  close(): Promise<void>;
}

async function startFakeGoogle(): Promise<FakeGoogle> {
  const seen: Seen[] = [];
  const failOnce = new Set<string>();
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      const where = `${req.method} ${req.url}`;
      seen.push({ method: req.method ?? '', path: req.url ?? '', authorization: req.headers.authorization ?? '', body });
      const send = (status: number, json: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8' });
        res.end(JSON.stringify(json));
      };
      if (failOnce.delete(where)) {
        send(403, { error: { code: 403, message: 'User has not enabled the Apps Script API.', status: 'PERMISSION_DENIED' } });
        return;
      }
      if (where === 'POST /token') {
        const form = new URLSearchParams(body);
        if (form.get('refresh_token') !== '1//refresh' || form.get('grant_type') !== 'refresh_token') send(400, { error: 'invalid_grant' });
        else send(200, { access_token: 'ya29.fake', expires_in: 3599, scope: 'https://www.googleapis.com/auth/drive.file', token_type: 'Bearer' });
      } else if (req.headers.authorization !== 'Bearer ya29.fake') {
        send(401, { error: { code: 401, message: 'Request had invalid authentication credentials.', status: 'UNAUTHENTICATED' } });
      } else if (where === 'POST /v4/spreadsheets') {
        const asked = JSON.parse(body) as { properties: unknown; sheets: unknown };
        send(200, {
          spreadsheetId: 'sheet-1',
          properties: asked.properties,
          sheets: asked.sheets,
          spreadsheetUrl: 'https://docs.google.com/spreadsheets/d/sheet-1/edit',
        });
      } else if (where === 'POST /v1/projects') {
        const asked = JSON.parse(body) as { title: string; parentId: string };
        send(200, {
          scriptId: 'script-1',
          title: asked.title,
          parentId: asked.parentId,
          createTime: '2025-02-10T18:00:00Z',
          updateTime: '2025-02-10T18:00:00Z',
        });
      } else if (where === 'PUT /v1/projects/script-1/content') {
        send(200, { scriptId: 'script-1', files: (JSON.parse(body) as { files: unknown[] }).files });
      } else if (where === 'POST /drive/v3/files/sheet-1/permissions') {
        send(200, { kind: 'drive#permission', id: 'anyoneWithLink', type: 'anyone', role: 'reader' });
      } else {
        send(404, { error: { code: 404, message: 'Not found', status: 'NOT_FOUND' } });
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    failOnce,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

let dir: string;
let google: FakeGoogle;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'crc-template-'));
  google = await startFakeGoogle();
  // clasp 3's ~/.clasprc.json
  writeFileSync(
    path.join(dir, 'clasprc.json'),
    JSON.stringify({
      tokens: {
        default: {
          client_id: 'id.apps.googleusercontent.com',
          client_secret: 'secret',
          type: 'authorized_user',
          refresh_token: '1//refresh',
          access_token: 'old',
        },
      },
    }),
  );
});

afterAll(async () => {
  await google?.close();
  rmSync(dir, { recursive: true, force: true });
});

function run(args: string[], env: Record<string, string> = {}) {
  return promisify(execFile)(process.execPath, [SCRIPT, ...args], { cwd: ROOT, env: { ...process.env, CRC_RATES_GOOGLE_API_BASE: google.url, ...env } });
}

const lines = (stdout: string) => stdout.trim().split('\n');

describe('--dry-run', () => {
  it('builds the add-on and prints the plan, with the first sheet in Spanish and English, without credentials', async () => {
    const state = path.join(dir, 'none.json');
    const { stdout } = await run(['--dry-run', '--base-url', 'https://rates.example.com', '--state', state, '--auth', path.join(dir, 'missing.json')], {
      CRC_RATES_GOOGLE_API_BASE: '',
    });
    const plan = lines(stdout);
    expect(plan[0]).toMatch(/^addon:build: .* Code\.js \(16 entry points\), Sidebar\.html, appsscript\.json$/);
    expect(plan).toContain('addon:build: default API address https://rates.example.com/api/v1; urlFetchWhitelist https://rates.example.com/');
    expect(plan).toContain(
      'addon:template: would create the spreadsheet "CRC Rates · tipo de cambio BCCR": POST https://sheets.googleapis.com/v4/spreadsheets',
    );
    expect(plan).toContain(
      'addon:template:     | 1. Pida una llave de la API en https://rates.example.com | 1. Ask for an API key at https://rates.example.com',
    );
    expect(plan).toContain("addon:template:     | Venta de hoy · Today's sell rate | =EXCHANGERATE() | =EXCHANGERATE()");
    expect(plan.filter((l) => /would (bind|upload|let anyone)/.test(l))).toEqual([
      'addon:template: would bind a script "CRC Rates" to it: POST https://script.googleapis.com/v1/projects {title, parentId: SPREADSHEET_ID}',
      'addon:template: would upload Code.js, Sidebar.html, appsscript.json: PUT https://script.googleapis.com/v1/projects/SCRIPT_ID/content',
      'addon:template: would let anyone with the link view it: POST https://www.googleapis.com/drive/v3/files/SPREADSHEET_ID/permissions {role: reader, type: anyone}',
    ]);
    expect(plan.at(-1)).toBe('addon:template: make a copy: https://docs.google.com/spreadsheets/d/SPREADSHEET_ID/copy');
  });

  it('with a template already made, plans only the upload to its script', async () => {
    const state = path.join(dir, 'made.json');
    writeFileSync(state, JSON.stringify({ spreadsheetId: 'sheet-9', scriptId: 'script-9', shared: true }));
    const plan = lines((await run(['--dry-run', '--state', state])).stdout).filter((l) => l.startsWith('addon:template:'));
    expect(plan.some((l) => l.includes('would create') || l.includes('would bind') || l.includes('would let anyone'))).toBe(false);
    expect(plan).toContain(`addon:template: would upload Code.js, Sidebar.html, appsscript.json: PUT ${google.url}/v1/projects/script-9/content`);
    expect(plan.at(-1)).toBe('addon:template: make a copy: https://docs.google.com/spreadsheets/d/sheet-9/copy');
  });
});

describe('the real run, against a fake Google', () => {
  const state = () => path.join(dir, 'template.json');

  it('finishes after a failure half-way without making a second spreadsheet, and uploads the add-on’s build', async () => {
    google.failOnce.add('POST /v1/projects');
    const first = run(['--state', state(), '--auth', path.join(dir, 'clasprc.json')]);
    await expect(first).rejects.toThrow(/POST .*\/v1\/projects: 403 User has not enabled the Apps Script API/);
    expect(JSON.parse(readFileSync(state(), 'utf8'))).toMatchObject({ spreadsheetId: 'sheet-1', scriptId: null, shared: false });
    // The spreadsheet: its first sheet explains the add-on in Spanish and English, with a live formula.
    const made = JSON.parse(google.seen.find((s) => s.path === '/v4/spreadsheets')?.body ?? '{}') as {
      properties: { title: string };
      sheets: Array<{
        properties: { title: string; index: number };
        data: Array<{ rowData: Array<{ values: Array<{ userEnteredValue: Record<string, string> }> }> }>;
      }>;
    };
    expect(made.properties.title).toBe('CRC Rates · tipo de cambio BCCR');
    expect(made.sheets[0]?.properties).toMatchObject({ title: 'Cómo usar · How to use', index: 0 });
    const cells = (made.sheets[0]?.data[0]?.rowData ?? []).flatMap((row) => row.values.map((v) => v.userEnteredValue));
    expect(cells).toContainEqual({ stringValue: '2. Extensiones → CRC Rates → Configuración: pegue la llave y guarde.' });
    expect(cells).toContainEqual({ stringValue: '2. Extensions → CRC Rates → Settings: paste the key and save.' });
    expect(cells).toContainEqual({ formulaValue: '=EXCHANGERATE()' });

    google.seen.length = 0;
    const { stdout } = await run(['--state', state(), '--auth', path.join(dir, 'clasprc.json')]);
    expect(google.seen.map((s) => `${s.method} ${s.path}`)).toEqual([
      'POST /token',
      'POST /v1/projects',
      'PUT /v1/projects/script-1/content',
      'POST /drive/v3/files/sheet-1/permissions',
    ]);
    expect(JSON.parse(google.seen[1]?.body ?? '{}')).toEqual({ title: 'CRC Rates', parentId: 'sheet-1' });
    const files = (JSON.parse(google.seen[2]?.body ?? '{}') as { files: Array<{ name: string; type: string; source: string }> }).files;
    expect(files.map((f) => `${f.name}:${f.type}`)).toEqual(['Code:SERVER_JS', 'Sidebar:HTML', 'appsscript:JSON']);
    expect(files[0]?.source).toContain('function EXCHANGERATE(');
    expect(JSON.parse(files[2]?.source ?? '{}').oauthScopes).toEqual(
      JSON.parse(readFileSync(path.join(ROOT, 'appsscript/appsscript.json'), 'utf8')).oauthScopes,
    );
    expect(JSON.parse(google.seen[3]?.body ?? '{}')).toEqual({ role: 'reader', type: 'anyone' });
    expect(lines(stdout)).toContain('addon:template: make a copy: https://docs.google.com/spreadsheets/d/sheet-1/copy');
    expect(JSON.parse(readFileSync(state(), 'utf8'))).toEqual({
      spreadsheetId: 'sheet-1',
      scriptId: 'script-1',
      shared: true,
      copyUrl: 'https://docs.google.com/spreadsheets/d/sheet-1/copy',
    });
  });

  it('a later run only uploads the new build to the same script', async () => {
    google.seen.length = 0;
    await run(['--state', state(), '--auth', path.join(dir, 'clasprc.json')]);
    expect(google.seen.map((s) => `${s.method} ${s.path}`)).toEqual(['POST /token', 'PUT /v1/projects/script-1/content']);
    expect(google.seen.every((s) => s.path === '/token' || s.authorization === 'Bearer ya29.fake')).toBe(true);
  });

  it('says what to do without a clasp login', async () => {
    await expect(run(['--state', path.join(dir, 'other.json'), '--auth', path.join(dir, 'missing.json')])).rejects.toThrow(/run npx clasp login first/);
  });
});
