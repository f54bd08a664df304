/**
 * The embeddable widgets: the card (360×150) and the banner (640×90 by default, fluid from 280 to
 * 1200 px wide) share one markup, laid out by their own CSS class. The rate is rendered here, so
 * it shows without JavaScript; widget.js then redraws the parts marked `data-field` from
 * /widget-data.json, inside an aria-live region.
 */
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

export interface WidgetView {
  kind: WidgetKind;
  lang: Lang;
  theme: Theme;
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

export function widgetPage(view: WidgetView): SafeHtml {
  const t = TEXTS[view.lang].widget;
  const { rate, lang } = view;
  return html`<!doctype html>
<html lang="${lang}" data-theme="${view.theme}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${t.frameTitle} · crc-rates</title>
<link rel="stylesheet" href="${view.assets.css}">
<script defer src="${view.assets.format}"></script>
<script defer src="${view.assets.script}"></script>
</head>
<body>
<main class="widget widget--${view.kind}" data-widget data-lang="${lang}" data-refresh="${view.refresh}" data-src="${view.dataUrl}">
  <h1 class="widget__title">${t.title} <span class="widget__pair">${t.pair}</span>${view.demo ? demoBadge(lang) : ''}</h1>
  <div class="widget__live" aria-live="polite" aria-atomic="true">
    <p class="widget__empty" data-state="empty"${rate ? html` hidden` : ''}>${t.empty}</p>
    <div class="widget__rate" data-state="rate"${rate ? '' : html` hidden`}>
      <dl class="widget__values">
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
