/// <reference types="google-apps-script" />
/**
 * The sidebar's server functions (called with google.script.run). They return only what the
 * sidebar may show: the key comes back masked, never whole. Errors are thrown with a message in
 * the sheet's language; the sidebar shows it as it is.
 */
import { PLANS, type PlanId } from '../../shared/plans';
import type { Usage } from '../../shared/types';
import { buildUrl, readAnswer } from './api';
import { fetchAll, readSettings, sheet, writeSettings } from './env';
import { formatReset } from './messages';
import { effectiveBaseUrl, resolveSettings, settingsView, type SettingsForm, type SettingsView } from './settings';

export interface ConnectionView extends Usage {
  baseUrl: string;
  planLabel: string;
  /** `resetsAt` as "2026-12-01 00:00 UTC". */
  resetsOn: string;
}

/**
 * The settings the sidebar shows: whether a key is saved (masked), and the API address.
 *
 * @return {Object} The settings view.
 */
export function getSettings(): SettingsView {
  return settingsView(readSettings(), sheet().locale);
}

/**
 * Saves the pasted key and the API address in the document's properties.
 *
 * @param {Object} form The sidebar form: key (blank keeps the saved one) and baseUrl (blank for the public service).
 * @return {Object} The settings view after saving.
 */
export function saveSettings(form: SettingsForm): SettingsView {
  const { locale, t } = sheet();
  const next = resolveSettings(readSettings(), form ?? {}, t);
  writeSettings(next);
  return settingsView(next, locale);
}

/**
 * Calls /usage with the pasted key (or the saved one) to show the plan and this month's quota.
 *
 * @param {Object} form The sidebar form: key and baseUrl, as for saving.
 * @return {Object} Plan, quota used and remaining, and when it resets.
 */
export function testConnection(form: SettingsForm): ConnectionView {
  const { t } = sheet();
  const settings = resolveSettings(readSettings(), form ?? {}, t);
  if (!settings.apiKey) throw new Error(t.noKey());
  const baseUrl = effectiveBaseUrl(settings.baseUrl);
  const [reply] = fetchAll([buildUrl(baseUrl, '/usage')], settings.apiKey, baseUrl, t);
  const usage = readAnswer<Usage>(reply, baseUrl, t);
  return { ...usage, baseUrl, planLabel: PLANS[usage.plan as PlanId]?.label ?? usage.plan, resetsOn: formatReset(usage.resetsAt) };
}

/**
 * Removes the saved key from this document.
 *
 * @return {Object} The settings view after removing it.
 */
export function removeKey(): SettingsView {
  const { locale } = sheet();
  const current = readSettings();
  const next = { apiKey: null, baseUrl: current.baseUrl };
  writeSettings(next);
  return settingsView(next, locale);
}
