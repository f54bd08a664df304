/**
 * The landing page at /es and /en, and at / in the browser's language (Spanish by default); and
 * the no-JavaScript side of its form: a refused post answered as a page, not as JSON.
 */
import type Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import { PLAN_IDS, type PlanId } from '../../shared/plans';
import { HttpError } from '../errors';
import type { Assets } from './assets';
import { DEFAULT_LANG, isLang, LANGS, preferredLang, TEXTS, type FormField, type Lang } from './i18n';
import type { LatestRate } from './latest';
import { formErrorPage } from './pages/form-error';
import { landingPage } from './pages/landing';
import { sendWithEtag, siteHeaders } from './respond';

function planFrom(value: unknown): PlanId {
  const plan = typeof value === 'string' ? value.trim().toLowerCase() : '';
  return (PLAN_IDS as string[]).includes(plan) ? (plan as PlanId) : 'pro';
}

export function mountLanding(router: Router, deps: { latest: LatestRate; assets: Assets; limit: Middleware; publicUrl: string; demo: boolean }): void {
  const { latest, assets, limit, publicUrl, demo } = deps;
  const files = { css: assets.url('site.css'), scripts: [assets.url('site.js'), assets.url('copy.js')] };

  const render = async (ctx: Context, lang: Lang) => {
    const { rate } = await latest.get();
    const page = landingPage({ lang, rate, origin: publicUrl, plan: planFrom(ctx.query.plan), assets: files, demo });
    siteHeaders(ctx, 'nowhere');
    sendWithEtag(ctx, page.value, 'text/html; charset=utf-8', 'public, max-age=60');
  };

  router.get('/', limit, async (ctx) => {
    ctx.vary('Accept-Language');
    await render(ctx, preferredLang(ctx));
  });
  for (const lang of LANGS) router.get(`/${lang}`, limit, (ctx) => render(ctx, lang));
}

const isFormField = (name: string | undefined): name is FormField => name !== undefined && name in TEXTS.es.site.fields;

/**
 * Wraps POST /request-access: when a browser posted the plain form (it prefers HTML) and the post
 * is refused, the answer is a page in the form's language (its hidden `lang` field) instead of
 * the JSON envelope. Scripts and API clients still get the envelope.
 */
export function formErrorsAsPages(assets: Assets): Middleware {
  const files = { css: assets.url('site.css') };
  return async (ctx, next) => {
    try {
      await next();
    } catch (error) {
      if (!(error instanceof HttpError) || error.status >= 500 || ctx.accepts('json', 'html') !== 'html') throw error;
      const body = (ctx.request as { body?: unknown }).body as Record<string, unknown> | undefined;
      const lang = isLang(body?.lang) ? body.lang : DEFAULT_LANG;
      // The form's messages say `Field "email" must be …`: the field is named the same here.
      const field = /^Field "(\w+)"/.exec(error.message)?.[1];
      ctx.status = error.status;
      ctx.set(error.headers);
      ctx.set('Cache-Control', 'no-store');
      siteHeaders(ctx, 'nowhere');
      ctx.type = 'text/html; charset=utf-8';
      ctx.body = formErrorPage({ lang, field: isFormField(field) ? field : null, message: error.message, assets: files }).value;
    }
  };
}
