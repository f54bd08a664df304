#!/usr/bin/env node
/**
 * `npm run addon:template`: the spreadsheet people copy to get the add-on without the
 * Marketplace. It makes, once, a spreadsheet whose first sheet explains the add-on (Spanish and
 * English, with live examples), binds to it a script with the files of `npm run addon:build`
 * (the same build, the same options), lets anyone with the link view it, and prints its "make a
 * copy" link, the address for ADDON_TEMPLATE_URL. What it made is remembered in
 * appsscript/.template.json (git-ignored: it is yours): a later run only uploads the new build to
 * the same script. Copies already made keep the code they were copied with.
 *
 * It calls Google's REST APIs (Sheets, Apps Script, Drive) with the credentials of
 * `npx clasp login`; the Apps Script API must be on at https://script.google.com/home/usersettings,
 * as for `npm run addon:push`.
 *
 * Options: the build's (`--base-url https://…`, `--allow https://…`), `--auth FILE` (clasp's
 * credentials, ~/.clasprc.json by default), `--state FILE` (what was made, appsscript/.template.json
 * by default) and `--dry-run`: build, then print what it would do, without credentials.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { credentialsFile, endpoints, googleClient, readCredentials } from './google.mjs';
import { HOW_TO_SHEET, howToRows, TEMPLATE_TITLE } from './template/how-to.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
/** The bound script's name is the menu's: Extensions → CRC Rates, as the first sheet says. */
const SCRIPT_TITLE = 'CRC Rates';
const FILES = [
  { file: 'Code.js', name: 'Code', type: 'SERVER_JS' },
  { file: 'Sidebar.html', name: 'Sidebar', type: 'HTML' },
  { file: 'appsscript.json', name: 'appsscript', type: 'JSON' },
];

function fail(message) {
  console.error(`addon:template: ${message}`);
  process.exit(1);
}

const say = (line) => console.log(`addon:template: ${line}`);

/** Its own options out of argv; the rest goes to the build as given. */
function options(argv) {
  const own = { dryRun: false, auth: null, state: path.join(here, '.template.json'), build: [] };
  for (let i = 0; i < argv.length; i++) {
    const m = /^--(auth|state)(?:=(.*))?$/.exec(argv[i]);
    if (argv[i] === '--dry-run') own.dryRun = true;
    else if (m) {
      const value = m[2] ?? argv[++i];
      if (value === undefined || value.startsWith('--')) fail(`--${m[1]} needs a value`);
      own[m[1]] = path.resolve(value);
    } else if (argv[i] === '--out' || argv[i]?.startsWith('--out='))
      fail('--out is for addon:build alone; the template takes the build from a folder of its own');
    else own.build.push(argv[i]);
  }
  return own;
}

/** The site the first sheet names: the --base-url server, else the public service. */
function siteOf(buildArgs) {
  const i = buildArgs.findIndex((a) => a === '--base-url' || a.startsWith('--base-url='));
  const given = i < 0 ? process.env.CRC_RATES_PUBLIC_URL?.trim() : buildArgs[i].includes('=') ? buildArgs[i].split('=')[1] : buildArgs[i + 1];
  const fallback = /PUBLIC_API_BASE_URL = '([^']+)'/.exec(readFileSync(path.join(root, 'shared', 'service.ts'), 'utf8'))?.[1];
  return new URL(given || fallback).origin;
}

/** Sheets' CellData for one cell of the first sheet. */
function cellData(cell) {
  if (cell.formula) return { userEnteredValue: { formulaValue: cell.formula } };
  return { userEnteredValue: { stringValue: cell.text } };
}

function spreadsheetBody(site) {
  const rows = howToRows(site);
  return {
    properties: { title: TEMPLATE_TITLE, locale: 'es_CR', timeZone: 'America/Costa_Rica' },
    sheets: [
      {
        properties: { title: HOW_TO_SHEET, index: 0, gridProperties: { frozenRowCount: 1 } },
        data: [{ startRow: 0, startColumn: 0, rowData: rows.map((row) => ({ values: row.map(cellData) })) }],
      },
    ],
  };
}

const copyLink = (spreadsheetId) => `https://docs.google.com/spreadsheets/d/${spreadsheetId}/copy`;

/** What earlier runs made: each step is written down as soon as it is done, so a run that stops half-way is finished by the next, never repeated. */
function readState(file) {
  if (!existsSync(file)) return { spreadsheetId: null, scriptId: null, shared: false };
  const state = JSON.parse(readFileSync(file, 'utf8'));
  if (typeof state.spreadsheetId !== 'string') fail(`${file} does not name the template's spreadsheet`);
  return { spreadsheetId: state.spreadsheetId, scriptId: state.scriptId ?? null, shared: state.shared === true };
}

function writeState(file, state) {
  const copyUrl = state.spreadsheetId ? copyLink(state.spreadsheetId) : null;
  writeFileSync(file, `${JSON.stringify({ ...state, copyUrl }, null, 2)}\n`);
}

async function main() {
  const args = options(process.argv.slice(2));
  const out = mkdtempSync(path.join(os.tmpdir(), 'crc-rates-template-'));
  try {
    // The add-on's own build, with the same options: the template's script is that build, bound.
    execFileSync(process.execPath, [path.join(here, 'build.mjs'), '--out', out, ...args.build], { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });
    const files = FILES.map(({ file, name, type }) => ({ name, type, source: readFileSync(path.join(out, file), 'utf8') }));
    const site = siteOf(args.build);
    const api = endpoints();
    const state = readState(args.state);
    const names = FILES.map((f) => f.file).join(', ');
    const stateName = path.relative(root, args.state);
    const spreadsheetId = () => state.spreadsheetId ?? 'SPREADSHEET_ID';
    const scriptId = () => state.scriptId ?? 'SCRIPT_ID';

    if (args.dryRun) {
      if (state.spreadsheetId) say(`already made (${stateName}): spreadsheet ${state.spreadsheetId}${state.scriptId ? `, script ${state.scriptId}` : ''}`);
      say(`would read the clasp login from ${credentialsFile(args.auth)} and refresh it: POST ${api.token}`);
      if (!state.spreadsheetId) {
        say(`would create the spreadsheet "${TEMPLATE_TITLE}": POST ${api.sheets}/spreadsheets`);
        say(`  its first sheet "${HOW_TO_SHEET}":`);
        for (const row of howToRows(site)) say(`    | ${row.map((c) => c.formula ?? c.text).join(' | ')}`);
      }
      if (!state.scriptId) say(`would bind a script "${SCRIPT_TITLE}" to it: POST ${api.script}/projects {title, parentId: ${spreadsheetId()}}`);
      say(`would upload ${names}: PUT ${api.script}/projects/${scriptId()}/content`);
      if (!state.shared) say(`would let anyone with the link view it: POST ${api.drive}/files/${spreadsheetId()}/permissions {role: reader, type: anyone}`);
      say(`would remember what it made in ${stateName}`);
      say(`make a copy: ${copyLink(spreadsheetId())}`);
      return;
    }

    const google = await googleClient(readCredentials(credentialsFile(args.auth)), api);
    if (!state.spreadsheetId) {
      const made = await google.call('POST', `${api.sheets}/spreadsheets`, spreadsheetBody(site));
      state.spreadsheetId = made.spreadsheetId;
      writeState(args.state, state);
      say(`created the spreadsheet ${state.spreadsheetId}; remembered in ${stateName}`);
    }
    if (!state.scriptId) {
      const made = await google.call('POST', `${api.script}/projects`, { title: SCRIPT_TITLE, parentId: state.spreadsheetId });
      state.scriptId = made.scriptId;
      writeState(args.state, state);
      say(`bound the script ${state.scriptId} to it`);
    }
    await google.call('PUT', `${api.script}/projects/${state.scriptId}/content`, { files });
    say(`uploaded ${names} (copies made before keep the code they were copied with)`);
    if (!state.shared) {
      await google.call('POST', `${api.drive}/files/${state.spreadsheetId}/permissions`, { role: 'reader', type: 'anyone' });
      state.shared = true;
      writeState(args.state, state);
      say('anyone with the link can view it, and copy it');
    }
    say(`make a copy: ${copyLink(state.spreadsheetId)}`);
    say(`set ADDON_TEMPLATE_URL=${copyLink(state.spreadsheetId)} on the server: /es/sheets and /en/sheets then offer it`);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

main().catch((error) => fail(error?.message ?? String(error)));
