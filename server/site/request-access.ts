/**
 * The site's request-access form: validated field by field (the 400 names the field), stored for
 * the operators (`npm run keys -- requests`), answered as JSON or as a small thank-you page,
 * depending on what the client accepts.
 */
import type Router from '@koa/router';
import type { Context } from 'koa';
import { z } from 'zod';
import { PLAN_IDS } from '../../shared/plans';
import type { createAccessRequestsStore } from '../store/access-requests';
import { badRequest } from '../errors';
import { parseBody } from '../http/middleware/body';

const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .optional()
    .transform((v) => (v ? v : null));

const FIELDS = {
  name: { schema: z.string().trim().min(1).max(120), rule: 'your name (1 to 120 characters)' },
  email: { schema: z.string().trim().max(254).pipe(z.email()), rule: 'a valid email address' },
  company: { schema: optionalText(120), rule: 'at most 120 characters' },
  plan: {
    schema: z.preprocess((v) => (typeof v === 'string' ? v.trim().toLowerCase() : v), z.enum(PLAN_IDS as [string, ...string[]])),
    rule: `one of ${PLAN_IDS.join(', ')}`,
  },
  message: { schema: optionalText(2000), rule: 'at most 2000 characters' },
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

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function thankYouPage(name: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Request received · crc-rates</title></head><body style="font-family:system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem">
<h1>Thank you, ${escapeHtml(name)}</h1><p>We received your request and will write to you with your API key. / Recibimos su solicitud y le escribiremos con su llave.</p>
<p><a href="/">Back to the site / Volver</a></p></body></html>`;
}

export function mountRequestAccess(router: Router, requests: ReturnType<typeof createAccessRequestsStore>): void {
  const body = parseBody(['json', 'form'], 'The body is not valid JSON or form data');
  router.post('/request-access', body, async (ctx: Context) => {
    const input = parseAccessRequest((ctx.request as { body?: unknown }).body);
    const id = await requests.add(input);
    ctx.status = 201;
    ctx.set('Cache-Control', 'no-store');
    if (ctx.accepts('json', 'html') === 'html') {
      ctx.type = 'text/html; charset=utf-8';
      ctx.body = thankYouPage(input.name);
      return;
    }
    ctx.body = { success: true, data: { id, received: true } };
  });
}
