/**
 * The pages for publishing the add-on and for other spreadsheet tools: /{lang}/privacy,
 * /{lang}/terms, /{lang}/sheets and /{lang}/excel, and the Power Query file the Excel page links
 * (/excel/crc-rates.pq). Their words are in texts/; what they say about the operator (contact,
 * where the add-on is installed from) comes from the configuration.
 */
import type Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import { calendarDay } from '../../shared/dates';
import type { Publishing } from '../config';
import { badRequest } from '../errors';
import type { Assets } from './assets';
import { LANGS, type Lang } from './i18n';
import { excelPage, POWER_QUERY_FILE } from './pages/excel';
import { legalPage } from './pages/legal';
import { sheetsPage } from './pages/sheets';
import { POWER_QUERY_TABLES, powerQuery, type CsvLocale } from './power-query';
import { sendWithEtag, siteHeaders } from './respond';

export const NO_PUBLISHING: Publishing = { contactEmail: null, addonListingUrl: null, addonTemplateUrl: null };

export interface SpreadsheetPagesDeps {
  assets: Assets;
  limit: Middleware;
  publicUrl: string;
  publishing: Publishing;
  clock: () => Date;
  demo: boolean;
}

/** The `locale` of the Power Query file: absent or `en` (a decimal point), or `es` (the API's locale=es). */
function csvLocale(value: unknown): CsvLocale {
  if (value === undefined || value === 'en') return 'en';
  if (value === 'es') return 'es';
  throw badRequest('Parameter "locale" must be one of: en, es');
}

export function mountSpreadsheetPages(router: Router, deps: SpreadsheetPagesDeps): void {
  const { assets, limit, publicUrl, publishing, demo } = deps;
  const css = { css: assets.url('site.css') };
  const apiBase = `${publicUrl}/api/v1/`;
  const send = (ctx: Context, page: string) => {
    siteHeaders(ctx, 'nowhere');
    sendWithEtag(ctx, page, 'text/html; charset=utf-8', 'public, max-age=300');
  };
  const pages: Record<string, (lang: Lang) => string> = {
    privacy: (lang) => legalPage({ lang, page: 'privacy', origin: publicUrl, contactEmail: publishing.contactEmail, assets: css, demo }).value,
    terms: (lang) => legalPage({ lang, page: 'terms', origin: publicUrl, contactEmail: publishing.contactEmail, assets: css, demo }).value,
    sheets: (lang) =>
      sheetsPage({ lang, origin: publicUrl, addonListingUrl: publishing.addonListingUrl, addonTemplateUrl: publishing.addonTemplateUrl, assets: css, demo })
        .value,
    excel: (lang) => excelPage({ lang, apiBase, today: calendarDay(deps.clock()), assets: { css: css.css, scripts: [assets.url('copy.js')] }, demo }).value,
  };
  for (const lang of LANGS) {
    for (const [name, render] of Object.entries(pages)) router.get(`/${lang}/${name}`, limit, (ctx) => send(ctx, render(lang)));
  }

  router.get(POWER_QUERY_FILE, limit, (ctx) => {
    const query = powerQuery(POWER_QUERY_TABLES, { apiBase, today: calendarDay(deps.clock()), csvLocale: csvLocale(ctx.query.locale) });
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Content-Disposition', 'attachment; filename="crc-rates.pq"');
    sendWithEtag(ctx, query, 'text/plain; charset=utf-8', 'public, max-age=300');
  });
}
