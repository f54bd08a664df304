/**
 * The site's request-access form: validated field by field (the 400 names the field), stored for
 * the operators (`npm run keys -- requests`), answered as JSON or as a thank-you page in the
 * form's language, depending on what the client accepts. The fields are anyone's text: control
 * characters are taken out before they are stored (a message keeps its line breaks), so that
 * nothing stored can drive the terminal the operator reads it in.
 */
import type Router from '@koa/router';
import type { Context } from 'koa';
import { z } from 'zod';
import { PLAN_IDS } from '../../shared/plans';
import { plainText } from '../domain/plain-text';
import { badRequest } from '../errors';
import { parseBody } from '../http/middleware/body';
import type { createAccessRequestsStore } from '../store/access-requests';
import type { Assets } from './assets';
import { DEFAULT_LANG, isLang } from './i18n';
import { formThanksPage } from './pages/form-thanks';
import { siteHeaders } from './respond';

/** One line of text, without control characters. */
const line = () => z.string().transform(plainText);
/** Lines of text: each without control characters, the line breaks kept (as \n). */
const lines = () =>
  z.string().transform((text) =>
    text
      .split(/\r\n|\r|\n/)
      .map(plainText)
      .join('\n')
      .trim(),
  );

const optional = (text: z.ZodType<string, string>, max: number) =>
  text
    .pipe(z.string().max(max))
    .optional()
    .transform((v) => (v ? v : null));

const FIELDS = {
  name: { schema: line().pipe(z.string().min(1).max(120)), rule: 'your name (1 to 120 characters)' },
  email: { schema: line().pipe(z.string().max(254)).pipe(z.email()), rule: 'a valid email address' },
  company: { schema: optional(line(), 120), rule: 'at most 120 characters' },
  plan: {
    schema: z.preprocess((v) => (typeof v === 'string' ? v.trim().toLowerCase() : v), z.enum(PLAN_IDS as [string, ...string[]])),
    rule: `one of ${PLAN_IDS.join(', ')}`,
  },
  message: { schema: optional(lines(), 2000), rule: 'at most 2000 characters' },
} as const;

type Field = keyof typeof FIELDS;

export function parseAccessRequest(body: unknown) {
  const input = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [name, { schema, rule }] of Object.entries(FIELDS) as Array<[Field, (typeof FIELDS)[Field]]>) {
    const value = input[name];
    if (Array.isArray(value)) throw badRequest(`Field "${name}" must be given only once`);
    const result = schema.safeParse(value);
    if (!result.success) throw badRequest(`Field "${name}" must be ${rule}`);
    out[name] = result.data;
  }
  return out as { name: string; email: string; company: string | null; plan: string; message: string | null };
}

export function mountRequestAccess(router: Router, requests: ReturnType<typeof createAccessRequestsStore>, assets: Assets): void {
  const files = { css: assets.url('site.css') };
  const body = parseBody(['json', 'form'], 'The body is not valid JSON or form data');
  router.post('/request-access', body, async (ctx: Context) => {
    const input = parseAccessRequest((ctx.request as { body?: unknown }).body);
    const id = await requests.add(input);
    ctx.status = 201;
    ctx.set('Cache-Control', 'no-store');
    if (ctx.accepts('json', 'html') === 'html') {
      // The plain form says its language in a hidden field.
      const lang = (ctx.request as { body?: { lang?: unknown } }).body?.lang;
      siteHeaders(ctx, 'nowhere');
      ctx.type = 'text/html; charset=utf-8';
      ctx.body = formThanksPage({ lang: isLang(lang) ? lang : DEFAULT_LANG, name: input.name, assets: files }).value;
      return;
    }
    ctx.body = { success: true, data: { id, received: true } };
  });
}
