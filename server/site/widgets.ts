/**
 * The widgets' routes: /{lang}/widget (card), /{lang}/banner, and /widget-data.json, the small
 * public answer they poll. None of them takes a key or counts against a quota; they share the
 * site's per-IP limit. Each takes `currency` (the dollar by default); a widget of another currency
 * polls /widget-data.json with the same `currency`.
 */
import type Router from '@koa/router';
import type { Middleware } from 'koa';
import { CURRENCY_CODES, DOLLAR, unknownCurrencyMessage } from '../../shared/currency-catalog';
import { badRequest } from '../errors';
import type { Assets } from './assets';
import { LANGS } from './i18n';
import type { LatestRate } from './latest';
import { refusedWidgetPage, THEMES, WIDGETS, widgetCurrency, widgetPage, type Theme, type WidgetKind } from './pages/widget';
import { sendWithEtag, siteHeaders } from './respond';

export const WIDGET_DATA_PATH = '/widget-data.json';
/** Seconds between a widget's refreshes: the default, and the bounds a `refresh` is held to. */
export const REFRESH = { default: 60, min: 1, max: 3600 } as const;

export interface WidgetQuery {
  theme: Theme;
  refresh: number;
}

/**
 * `?theme=auto|light|dark&refresh=SECONDS`. A widget is pasted into other people's pages and must
 * keep working: a value it cannot use falls back to the default instead of failing.
 */
export function parseWidgetQuery(query: Record<string, string | string[] | undefined>): WidgetQuery {
  const theme = typeof query.theme === 'string' ? query.theme.trim().toLowerCase() : '';
  const refresh = typeof query.refresh === 'string' && /^\d{1,9}$/.test(query.refresh.trim()) ? Number(query.refresh) : REFRESH.default;
  return {
    theme: (THEMES as readonly string[]).includes(theme) ? (theme as Theme) : 'auto',
    refresh: Math.min(REFRESH.max, Math.max(REFRESH.min, refresh)),
  };
}

/** A currency the widgets can show (its code, upper case), or what was given instead (null: given more than once). */
export type CurrencyChoice = { code: string } | { refused: string | null };

/**
 * `?currency=CODE`, any code of the catalog in any case; USD when absent. Unlike the theme, a
 * currency is never guessed: showing the dollar to someone who asked for another currency would
 * be a wrong rate that looks right, so anything else is refused.
 */
export function parseWidgetCurrency(query: Record<string, string | string[] | undefined>): CurrencyChoice {
  const given = query.currency;
  if (given === undefined) return { code: DOLLAR.code };
  if (typeof given !== 'string') return { refused: null };
  const code = given.trim().toUpperCase();
  return CURRENCY_CODES.includes(code) ? { code } : { refused: given };
}

/** Where a widget of `code` polls: the dollar's keeps its address of old. */
export const widgetDataUrl = (code: string): string => (code === DOLLAR.code ? WIDGET_DATA_PATH : `${WIDGET_DATA_PATH}?currency=${code}`);

export function mountWidgets(router: Router, deps: { latest: LatestRate; assets: Assets; limit: Middleware; demo: boolean }): void {
  const { latest, assets, limit, demo } = deps;
  const files = { css: assets.url('widget.css'), format: assets.url('format.js'), script: assets.url('widget.js') };

  router.get(WIDGET_DATA_PATH, limit, async (ctx) => {
    const choice = parseWidgetCurrency(ctx.query);
    if ('refused' in choice) {
      throw badRequest(choice.refused === null ? 'Parameter "currency" must be given only once' : unknownCurrencyMessage('currency', choice.refused));
    }
    const { json, etag } = await latest.get(choice.code);
    ctx.set('X-Content-Type-Options', 'nosniff');
    // Short: a shared cache may hold it briefly; the widgets themselves revalidate every time.
    sendWithEtag(ctx, json, 'application/json; charset=utf-8', 'public, max-age=30', etag);
  });

  for (const lang of LANGS) {
    for (const kind of Object.keys(WIDGETS) as WidgetKind[]) {
      router.get(`/${lang}/${WIDGETS[kind].path}`, limit, async (ctx) => {
        const query = parseWidgetQuery(ctx.query);
        const choice = parseWidgetCurrency(ctx.query);
        siteHeaders(ctx, 'anywhere');
        if ('refused' in choice) {
          // Shown in the frame, where whoever pasted the widget sees what to change; never cached.
          ctx.status = 400;
          ctx.set('Cache-Control', 'no-store');
          ctx.type = 'text/html; charset=utf-8';
          ctx.body = refusedWidgetPage({ kind, lang, theme: query.theme, given: choice.refused, assets: { css: files.css } }).value;
          return;
        }
        const { rate } = await latest.get(choice.code);
        const currency = widgetCurrency(choice.code);
        const page = widgetPage({ kind, lang, ...query, currency, rate, assets: files, dataUrl: widgetDataUrl(choice.code), demo });
        sendWithEtag(ctx, page.value, 'text/html; charset=utf-8', 'public, max-age=60');
      });
    }
  }
}
