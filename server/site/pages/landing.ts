/**
 * The landing page, in Spanish or English: what the service is, today's official rate, the live
 * widgets with their embed code, pricing, the API links and the request-access form. The form is
 * a plain POST to /request-access; site.js takes it over when JavaScript runs. Every code block
 * has a copy button, which copy.js shows and runs (without JavaScript the code is selected by hand).
 */
import { LIMITS } from '../../../shared/limits';
import { PLANS, PLAN_IDS, type PlanId } from '../../../shared/plans';
import type { ExchangeRate } from '../../../shared/types';
import * as format from '../assets/format';
import { html, type SafeHtml } from '../html';
import { count, TEXTS, usd, type FormField, type Lang } from '../i18n';
import { PAGE_LINKS } from '../texts/spreadsheets';
import { codeBlock as sharedCodeBlock } from './code-block';
import { layout } from './layout';
import { WIDGETS, type WidgetKind } from './widget';

export interface LandingView {
  lang: Lang;
  rate: ExchangeRate | null;
  /** scheme://host of this request, for the embed code people copy to other sites. */
  origin: string;
  /** The plan the form starts on (`?plan=` from a pricing link). */
  plan: PlanId;
  assets: { css: string; scripts: readonly string[] };
  /** The instance serves simulated data (`npm run demo`): the page says so. */
  demo: boolean;
}

/** The code blocks of the page, each with a copy button. */
type CodeBlock = keyof (typeof TEXTS)['es']['site']['copy']['what'];

/**
 * The code another site pastes: a plain iframe of the widget at its suggested size, which shrinks
 * with a narrower column (the widgets are fluid down to 280 px) instead of overflowing it.
 */
export function embedSnippet(origin: string, lang: Lang, kind: WidgetKind): string {
  const { path, width, height } = WIDGETS[kind];
  return `<iframe src="${origin}/${lang}/${path}" width="${width}" height="${height}" title="${TEXTS[lang].widget.frameTitle}" style="border:0;max-width:100%" loading="lazy"></iframe>`;
}

function todayRate(view: LandingView): SafeHtml {
  const { rate, lang } = view;
  const t = TEXTS[lang];
  if (!rate) return html`<p class="rate__empty">${t.site.noData}</p>`;
  return html`<dl class="rate__values">
      <div><dt>${t.widget.buy}</dt><dd>${format.money(rate.buy, lang)}</dd></div>
      <div><dt>${t.widget.sell}</dt><dd>${format.money(rate.sell, lang)}</dd></div>
    </dl>
    <p class="rate__meta">${t.widget.datePrefix} <time datetime="${rate.date}">${format.date(rate.date, lang)}</time> · ${t.widget.source} ${rate.source}</p>`;
}

function codeBlock(lang: Lang, block: CodeBlock, label: string, code: string): SafeHtml {
  return sharedCodeBlock(lang, `snippet-${block}`, label, TEXTS[lang].site.copy.what[block], code);
}

function widgetExample(view: LandingView, kind: WidgetKind): SafeHtml {
  const t = TEXTS[view.lang];
  const { path, width, height } = WIDGETS[kind];
  return html`<figure class="example">
      <figcaption><h3>${kind === 'card' ? t.site.card : t.site.banner} <span class="muted">(${width} × ${height})</span></h3></figcaption>
      <div class="example__frame">
        <iframe src="/${view.lang}/${path}" width="${width}" height="${height}" class="example__${kind}" title="${t.widget.frameTitle}" loading="lazy"></iframe>
      </div>
      ${codeBlock(view.lang, kind, t.site.snippetLabel, embedSnippet(view.origin, view.lang, kind))}
    </figure>`;
}

function pricing(view: LandingView): SafeHtml {
  const { lang } = view;
  const t = TEXTS[lang].site;
  const pro = PLANS.pro;
  return html`<div class="plans">
      <article class="plan">
        <h3>${pro.label}</h3>
        <p class="plan__price"><strong>${usd(pro.priceUsdPerMonth, lang)}</strong> ${t.perMonth}</p>
        <ul>
          <li>${count(pro.monthlyQuota, lang)} ${t.requestsPerMonth}</li>
          <li>${count(LIMITS.rateLimit.perMinute, lang)} ${t.requestsPerMinute}</li>
        </ul>
        <a class="button" href="/${lang}?plan=pro#request">${t.ask} ${pro.label}</a>
      </article>
      <article class="plan">
        <h3>${PLANS.custom.label}</h3>
        <p class="plan__price"><strong>${t.customPrice}</strong></p>
        <ul>
          <li>${t.customLimits}</li>
          <li>${t.customNote}</li>
        </ul>
        <a class="button" href="/${lang}?plan=custom#request">${t.ask} ${PLANS.custom.label}</a>
      </article>
    </div>`;
}

/** A labelled field with the place for its error; the control's id is `f-NAME`. */
function field(lang: Lang, name: FormField, control: SafeHtml): SafeHtml {
  const t = TEXTS[lang].site.fields[name];
  return html`<div class="field" data-field="${name}">
        <label for="f-${name}">${t.label}</label>
        ${control}
        <p class="field__error" id="f-${name}-error" data-error-for="${name}" data-message="${t.error}" hidden></p>
      </div>`;
}

function requestForm(view: LandingView): SafeHtml {
  const { lang } = view;
  const t = TEXTS[lang].site;
  const planOptions = PLAN_IDS.map((p) => html`<option value="${p}"${p === view.plan ? html` selected` : ''}>${PLANS[p].label}</option>`);
  return html`<form class="form" method="post" action="/request-access" data-request-form
      data-thanks="${t.thanks}" data-too-many="${t.tooMany}" data-failed="${t.failed}" data-sending="${t.sending}">
      <input type="hidden" name="lang" value="${lang}">
      ${field(lang, 'name', html`<input id="f-name" name="name" type="text" required maxlength="120" autocomplete="name">`)}
      ${field(lang, 'email', html`<input id="f-email" name="email" type="email" required maxlength="254" autocomplete="email" spellcheck="false">`)}
      ${field(lang, 'company', html`<input id="f-company" name="company" type="text" maxlength="120" autocomplete="organization">`)}
      ${field(lang, 'plan', html`<select id="f-plan" name="plan" required>${planOptions}</select>`)}
      ${field(lang, 'message', html`<textarea id="f-message" name="message" rows="4" maxlength="2000"></textarea>`)}
      <p class="form__status" role="status" data-form-status></p>
      <button class="button" type="submit">${t.submit}</button>
    </form>`;
}

export function landingPage(view: LandingView): SafeHtml {
  const { lang, origin } = view;
  const t = TEXTS[lang].site;
  const main = html`
<section class="hero">
  <div class="wrap hero__inner">
    <div>
      <h1>${t.heading}</h1>
      <p class="lead">${t.intro}</p>
    </div>
    <section class="rate" id="rate" aria-labelledby="rate-heading">
      <h2 id="rate-heading">${t.today} <span class="muted">USD/CRC</span></h2>
      ${todayRate(view)}
    </section>
  </div>
</section>

<section class="section" id="widgets" aria-labelledby="widgets-heading">
  <div class="wrap">
    <h2 id="widgets-heading">${t.widgetsHeading}</h2>
    <p>${t.widgetsIntro}</p>
    ${widgetExample(view, 'card')}
    ${widgetExample(view, 'banner')}
    <p class="muted">${t.widgetsOptions}</p>
  </div>
</section>

<section class="section" id="pricing" aria-labelledby="pricing-heading">
  <div class="wrap">
    <h2 id="pricing-heading">${t.pricingHeading}</h2>
    ${pricing(view)}
  </div>
</section>

<section class="section" id="api" aria-labelledby="api-heading">
  <div class="wrap">
    <h2 id="api-heading">${t.apiHeading}</h2>
    <p>${t.apiIntro}</p>
    <ul class="links">
      <li><a href="/docs">${t.docs}</a></li>
      <li><a href="/api/v1/openapi.json">${t.openapi}</a> <span class="muted">(/api/v1/openapi.json)</span></li>
      <li><a href="/${lang}/sheets">${PAGE_LINKS[lang].sheets}</a></li>
      <li><a href="/${lang}/excel">${PAGE_LINKS[lang].excel}</a></li>
    </ul>
    ${codeBlock(lang, 'api', t.apiExample, `curl -H "x-api-key: ${t.yourKey}" ${origin}/api/v1/exchange-rate/latest`)}
  </div>
</section>

<section class="section" id="request" aria-labelledby="request-heading">
  <div class="wrap">
    <h2 id="request-heading">${t.formHeading}</h2>
    <p>${t.formIntro}</p>
    ${requestForm(view)}
  </div>
</section>`;
  return layout({
    lang,
    title: t.title,
    description: t.description,
    assets: view.assets,
    otherLangPath: `/${lang === 'es' ? 'en' : 'es'}`,
    nav: true,
    demo: view.demo,
    main,
  });
}
