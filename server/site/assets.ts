/**
 * The site's own scripts and styles, read once at start and served from /assets/. Pages link
 * them with a content hash (`/assets/widget.js?v=…`), so they can be cached for a year: a new
 * version is a new address.
 */
import fs from 'node:fs';
import path from 'node:path';
import type Router from '@koa/router';
import type { Middleware } from 'koa';
import { strongEtag } from '../http/etag';
import { sendWithEtag } from './respond';

const FILES = {
  'format.js': 'application/javascript; charset=utf-8',
  'widget.js': 'application/javascript; charset=utf-8',
  'widget.css': 'text/css; charset=utf-8',
  'site.js': 'application/javascript; charset=utf-8',
  'copy.js': 'application/javascript; charset=utf-8',
  'site.css': 'text/css; charset=utf-8',
  'provenance.css': 'text/css; charset=utf-8',
} as const;

export type AssetName = keyof typeof FILES;

interface Asset {
  type: string;
  body: string;
  etag: string;
}

export interface Assets {
  /** The versioned address of a file, for pages to link. */
  url(name: AssetName): string;
  /** A file's text, for a page that carries it inline. */
  text(name: AssetName): string;
  mount(router: Router, limit: Middleware): void;
}

export function loadAssets(dir = path.join(__dirname, 'assets')): Assets {
  const files = new Map<string, Asset & { version: string }>();
  for (const [name, type] of Object.entries(FILES)) {
    const body = fs.readFileSync(path.join(dir, name), 'utf8');
    const etag = strongEtag(body);
    files.set(name, { type, body, etag, version: etag.slice(1, 11) });
  }
  return {
    url(name) {
      return `/assets/${name}?v=${files.get(name)?.version ?? ''}`;
    },
    text(name) {
      return files.get(name)?.body ?? '';
    },
    mount(router, limit) {
      router.get('/assets/:name', limit, (ctx) => {
        const file = files.get(ctx.params.name ?? '');
        if (!file) return; // falls through to the app's 404
        ctx.set('X-Content-Type-Options', 'nosniff');
        // Only the current version may be kept for good; an old or missing one is revalidated soon.
        const versioned = ctx.query.v === file.version;
        sendWithEtag(ctx, file.body, file.type, versioned ? 'public, max-age=31536000, immutable' : 'public, max-age=300', file.etag);
      });
    },
  };
}
