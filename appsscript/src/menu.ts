/// <reference types="google-apps-script" />
/**
 * The add-on menu and the settings sidebar. `onOpen` also runs in AuthMode.NONE (a document
 * where the add-on is installed but not yet used): there it may only build the menu, never read
 * properties or the spreadsheet, so the menu label is English until the add-on is enabled.
 */
import { PRODUCT_NAME } from './config';
import { readSettings, sheet } from './env';
import { messages } from './messages';
import { scriptJson, settingsView } from './settings';

type OpenEvent = { authMode?: unknown } | undefined;

function isAuthModeNone(e: OpenEvent): boolean {
  if (!e || e.authMode === undefined) return false;
  return (typeof ScriptApp !== 'undefined' && e.authMode === ScriptApp.AuthMode.NONE) || String(e.authMode) === 'NONE';
}

/**
 * Adds Extensions → CRC Rates → Settings.
 *
 * @param {Object} e The open event; its authMode decides what may be read.
 */
export function onOpen(e?: OpenEvent) {
  let label = messages('en').menuSettings;
  if (!isAuthModeNone(e)) {
    try {
      label = sheet().t.menuSettings;
    } catch {
      // The spreadsheet cannot be read in this mode: keep the English label.
    }
  }
  SpreadsheetApp.getUi().createAddonMenu().addItem(label, 'showSettings').addToUi();
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
 * Opens the settings sidebar: paste the API key, test the connection, save or remove it.
 */
export function showSettings() {
  const { locale } = sheet();
  const template = HtmlService.createTemplateFromFile('Sidebar');
  // What the sidebar starts with: never the key itself, only its masked form.
  (template as unknown as { boot: string }).boot = scriptJson(settingsView(readSettings(), locale));
  const html = template.evaluate().setTitle(PRODUCT_NAME);
  SpreadsheetApp.getUi().showSidebar(html);
}
