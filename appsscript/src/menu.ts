/// <reference types="google-apps-script" />
/**
 * The add-on menu, the settings sidebar and "Freeze selected values". `onOpen` also runs in
 * AuthMode.NONE (a document where the add-on is installed but not yet used): there it may only
 * build the menu, never read properties or the spreadsheet, so the menu labels are English until
 * the add-on is enabled.
 */
import { PRODUCT_NAME } from './config';
import { readDocument, sheet } from './env';
import { coverRects, literal, lostCells, type Rect, selectedFormulas, slice } from './freeze';
import { staleView } from './lastgood';
import { messages, type Messages } from './messages';
import { scriptJson, settingsView } from './settings';

type OpenEvent = { authMode?: unknown } | undefined;

function isAuthModeNone(e: OpenEvent): boolean {
  if (!e || e.authMode === undefined) return false;
  return (typeof ScriptApp !== 'undefined' && e.authMode === ScriptApp.AuthMode.NONE) || String(e.authMode) === 'NONE';
}

/**
 * Adds Extensions → CRC Rates → Settings and Freeze selected values.
 *
 * @param {Object} e The open event; its authMode decides what may be read.
 */
export function onOpen(e?: OpenEvent) {
  let t: Messages = messages('en');
  if (!isAuthModeNone(e)) {
    try {
      t = sheet().t;
    } catch {
      // The spreadsheet cannot be read in this mode: keep the English labels.
    }
  }
  SpreadsheetApp.getUi().createAddonMenu().addItem(t.menuSettings, 'showSettings').addItem(t.menuFreeze, 'freezeSelection').addToUi();
}

/**
 * Runs when the add-on is installed: builds the menu right away.
 *
 * @param {Object} e The install event.
 */
export function onInstall(e?: OpenEvent) {
  onOpen(e);
}

/**
 * Opens the settings sidebar: paste the API key, test the connection, save or remove it; this
 * month's usage; whether some cells show the last known good copy.
 */
export function showSettings() {
  const { locale } = sheet();
  const { settings, lastGood } = readDocument();
  const template = HtmlService.createTemplateFromFile('Sidebar');
  // What the sidebar starts with: never the key itself, only its masked form.
  (template as unknown as { boot: string }).boot = scriptJson(settingsView(settings, locale, staleView(lastGood.stale())));
  const html = template.evaluate().setTitle(PRODUCT_NAME);
  SpreadsheetApp.getUi().showSidebar(html);
}

type Range = GoogleAppsScript.Spreadsheet.Range;

/** The range, grown to the block of data around it (where the spills of its formulas lie). */
function regionOf(range: Range): Range {
  const region = range.getDataRegion();
  const top = Math.min(range.getRow(), region.getRow());
  const left = Math.min(range.getColumn(), region.getColumn());
  const bottom = Math.max(range.getLastRow(), region.getLastRow());
  const right = Math.max(range.getLastColumn(), region.getLastColumn());
  return range.getSheet().getRange(top, left, bottom - top + 1, right - left + 1);
}

const part = (grid: Range, r: Rect) => grid.offset(r.row, r.column, r.rows, r.columns);

/** Freezes the formulas of one selected range; returns how many there were. */
function freezeRange(range: Range): number {
  const grid = regionOf(range);
  const formulas = grid.getFormulas();
  const selection = {
    row: range.getRow() - grid.getRow(),
    column: range.getColumn() - grid.getColumn(),
    rows: range.getNumRows(),
    columns: range.getNumColumns(),
  };
  const marked = selectedFormulas(formulas, selection);
  const count = marked.flat().filter(Boolean).length;
  if (count === 0) return 0;
  const before = grid.getValues();
  for (const rect of coverRects(marked)) {
    const cells = part(grid, rect);
    cells.copyTo(cells, SpreadsheetApp.CopyPasteType.PASTE_VALUES, false);
  }
  SpreadsheetApp.flush();
  // The spills of the frozen formulas vanished with them: they get back the values they showed.
  const lost = lostCells(before, grid.getValues(), formulas);
  for (const rect of coverRects(lost)) part(grid, rect).setValues(slice(before, rect).map((row) => row.map(literal)));
  return count;
}

/**
 * Replaces the formulas of the selected cells with the values they show (a function that fills a
 * table: its whole table), so that closed figures never change again. Edit → Undo brings them back.
 */
export function freezeSelection() {
  const { t } = sheet();
  const spreadsheet = SpreadsheetApp.getActiveSpreadsheet();
  const ranges = spreadsheet.getActiveRangeList()?.getRanges() ?? [];
  let frozen = 0;
  const where: string[] = [];
  for (const range of ranges) {
    const count = freezeRange(range);
    if (count === 0) continue;
    frozen += count;
    where.push(range.getA1Notation());
  }
  spreadsheet.toast(frozen > 0 ? t.freezeDone(frozen, where.join(', ')) : t.freezeNothing, t.freezeTitle, 10);
}
