/**
 * The embeddable widgets: the card (360×150) and the banner (640×90 by default, fluid from 280 to
 * 1200 px wide) share one markup, laid out by their own CSS class. The rate is rendered here, so
 * it shows without JavaScript; widget.js then redraws the parts marked `data-field` from
 * /widget-data.json, inside an aria-live region.
 *
 * The dollar's widget says "official"; another currency's says instead that its rate is derived
 * from the central bank's cross rate, and names the currency (the name may be cut short with an
 * ellipsis where a narrow frame has no room for it, never the code).
 */
import { DOLLAR, derivedCurrency, type LocalizedName } from '../../../shared/currency-catalog';
import type { ExchangeRate } from '../../../shared/types';
import * as format from '../assets/format';
import { html, type SafeHtml } from '../html';
import { TEXTS, type Lang } from '../i18n';

/** Each widget's address under /{lang}/ and its suggested frame size. */
export const WIDGETS = {
  card: { path: 'widget', width: 360, height: 150 },
  banner: { path: 'banner', width: 640, height: 90 },
} as const;
export type WidgetKind = keyof typeof WIDGETS;

export const THEMES = ['auto', 'light', 'dark'] as const;
export type Theme = (typeof THEMES)[number];

/** The currency a widget shows. */
export interface WidgetCurrency {
  code: string;
  name: LocalizedName;
  /** Derived from the cross rate (every currency but the dollar). */
  derived: boolean;
}

/** The widget's currency of a catalog code (upper case). */
export function widgetCurrency(code: string): WidgetCurrency {
  if (code === DOLLAR.code) return { code, name: DOLLAR.name, derived: false };
  const currency = derivedCurrency(code);
  if (!currency) throw new RangeError(`${code} is not in the currency catalog`);
  return { code, name: currency.name, derived: true };
}

export interface WidgetView {
  kind: WidgetKind;
  lang: Lang;
  theme: Theme;
  currency: WidgetCurrency;
  /** Seconds between refreshes. */
  refresh: number;
  rate: ExchangeRate | null;
  /** Versioned addresses of the page's files. */
  assets: { css: string; format: string; script: string };
  dataUrl: string;
  /** The instance serves simulated data (`npm run demo`): the widget says so. */
  demo: boolean;
}

/**
 * "demo data", inside the title so it flows with it. The narrowest banners have no room for the
 * words and show the short form instead; the words stay for screen readers.
 */
function demoBadge(lang: Lang): SafeHtml {
  const t = TEXTS[lang].widget;
  return html` <span class="demo-badge" data-demo><span class="demo-badge__long">${t.demo}</span><span class="demo-badge__short" aria-hidden="true">${t.demoShort}</span></span>`;
}

/** The dollar's title, as it always was: "Official exchange rate USD/CRC". */
function officialTitle(view: WidgetView): SafeHtml {
  const t = TEXTS[view.lang].widget;
  return html`<h1 class="widget__title">${t.title} <span class="widget__pair">${t.pair}</span>${view.demo ? demoBadge(view.lang) : ''}</h1>`;
}

/**
 * Another currency's: its name and pair on one line, then where the rate comes from. Where the
 * frame is too narrow for those words, a short "derived" shows instead; the words stay for
 * screen readers, as the demo badge's do.
 */
function derivedTitle(view: WidgetView): SafeHtml {
  const t = TEXTS[view.lang].widget;
  const { code, name } = view.currency;
  return html`<h1 class="widget__title widget__title--derived"><span class="widget__heading"><span class="widget__name" title="${name[view.lang]}">${name[view.lang]}</span> <span class="widget__pair">${code}/CRC</span>${view.demo ? demoBadge(view.lang) : ''}</span> <span class="widget__derived" data-derived><span class="widget__derived-long">${t.derived}</span><span class="widget__derived-short" aria-hidden="true">${t.derivedShort}</span></span></h1>`;
}

/** What the frame is called (the page's title): never "official" for a derived rate. */
function frameTitle(view: WidgetView): string {
  const t = TEXTS[view.lang].widget;
  const { code, name, derived } = view.currency;
  return derived ? `${name[view.lang]} ${code}/CRC: ${t.derivedFrameTitle}` : t.frameTitle;
}

export function widgetPage(view: WidgetView): SafeHtml {
  const t = TEXTS[view.lang].widget;
  const { rate, lang } = view;
  return html`<!doctype html>
<html lang="${lang}" data-theme="${view.theme}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${frameTitle(view)} · crc-rates</title>
<link rel="stylesheet" href="${view.assets.css}">
<script defer src="${view.assets.format}"></script>
<script defer src="${view.assets.script}"></script>
</head>
<body>
<main class="widget widget--${view.kind}" data-widget data-lang="${lang}" data-currency="${view.currency.code}" data-refresh="${view.refresh}" data-src="${view.dataUrl}">
  ${view.currency.derived ? derivedTitle(view) : officialTitle(view)}
  <div class="widget__live" aria-live="polite" aria-atomic="true">
    <p class="widget__empty" data-state="empty"${rate ? html` hidden` : ''}>${t.empty}</p>
    <div class="widget__rate" data-state="rate"${rate ? '' : html` hidden`}>
      <dl class="widget__values"${rate && (format.compact(rate.buy) || format.compact(rate.sell)) ? html` data-compact` : ''}>
        <div class="widget__value"><dt>${t.buy}</dt><dd data-field="buy">${rate ? format.money(rate.buy, lang) : ''}</dd></div>
        <div class="widget__value"><dt>${t.sell}</dt><dd data-field="sell">${rate ? format.money(rate.sell, lang) : ''}</dd></div>
      </dl>
      <p class="widget__date">${t.datePrefix} <time data-field="date" datetime="${rate?.date ?? ''}">${rate ? format.date(rate.date, lang) : ''}</time></p>
    </div>
  </div>
  <p class="widget__foot"><span>${t.source} <span data-field="source">${rate?.source ?? 'BCCR'}</span></span>
    <a href="/${lang}" target="_blank" rel="noopener">${t.link}<span class="visually-hidden"> ${t.newTab}</span><span aria-hidden="true"> ↗</span></a></p>
</main>
</body>
</html>
`;
}

export interface RefusedWidgetView {
  kind: WidgetKind;
  lang: Lang;
  theme: Theme;
  /** The `currency` the widget was given, or null when it was given more than once. */
  given: string | null;
  assets: { css: string };
}

/** Enough of a refused value to recognise it, not a paragraph of it in a 90 px frame. */
const SHOWN_CHARACTERS = 16;
const shortened = (text: string) => (text.length > SHOWN_CHARACTERS ? `${text.slice(0, SHOWN_CHARACTERS)}…` : text);

/**
 * What a widget shows when its address asks for something it cannot do (a currency not in the
 * catalog): in its own frame, where the person who pasted it sees it, what to change. No script:
 * there is nothing to refresh.
 */
export function refusedWidgetPage(view: RefusedWidgetView): SafeHtml {
  const t = TEXTS[view.lang].widget;
  const message = view.given === null ? t.currencyRepeated : html`${t.currencyUnknown} <code>${shortened(view.given)}</code>`;
  return html`<!doctype html>
<html lang="${view.lang}" data-theme="${view.theme}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${t.refusedTitle} · crc-rates</title>
<link rel="stylesheet" href="${view.assets.css}">
</head>
<body>
<main class="widget widget--${view.kind} widget--refused" data-widget data-lang="${view.lang}">
  <h1 class="widget__title">${t.refusedTitle}</h1>
  <p class="widget__refusal" data-state="refused" role="alert">${message}</p>
</main>
</body>
</html>
`;
}
