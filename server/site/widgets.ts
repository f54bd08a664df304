/**
 * The widgets' routes: /{lang}/widget (card), /{lang}/banner, and /widget-data.json, the small
 * public answer they poll. None of them takes a key or counts against a quota; they share the
 * site's per-IP limit.
 */
import type Router from '@koa/router';
import type { Middleware } from 'koa';
import type { Assets } from './assets';
import { LANGS } from './i18n';
import type { LatestRate } from './latest';
import { THEMES, WIDGETS, widgetPage, type Theme, type WidgetKind } from './pages/widget';
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

export function mountWidgets(router: Router, deps: { latest: LatestRate; assets: Assets; limit: Middleware; demo: boolean }): void {
  const { latest, assets, limit, demo } = deps;
  const files = { css: assets.url('widget.css'), format: assets.url('format.js'), script: assets.url('widget.js') };

  router.get(WIDGET_DATA_PATH, limit, async (ctx) => {
    const { json, etag } = await latest.get();
    ctx.set('X-Content-Type-Options', 'nosniff');
    // Short: a shared cache may hold it briefly; the widgets themselves revalidate every time.
    sendWithEtag(ctx, json, 'application/json; charset=utf-8', 'public, max-age=30', etag);
  });

  for (const lang of LANGS) {
    for (const kind of Object.keys(WIDGETS) as WidgetKind[]) {
      router.get(`/${lang}/${WIDGETS[kind].path}`, limit, async (ctx) => {
        const { rate } = await latest.get();
        const page = widgetPage({ kind, lang, ...parseWidgetQuery(ctx.query), rate, assets: files, dataUrl: WIDGET_DATA_PATH, demo });
        siteHeaders(ctx, 'anywhere');
        sendWithEtag(ctx, page.value, 'text/html; charset=utf-8', 'public, max-age=60');
      });
    }
  }
}
