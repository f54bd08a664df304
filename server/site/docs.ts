/**
 * The human API reference at /docs: Swagger UI, served from its package in node_modules (no CDN),
 * reading the live /api/v1/openapi.json.
 */
import fs from 'node:fs';
import path from 'node:path';
import type Router from '@koa/router';

const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'application/javascript; charset=utf-8',
};

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>crc-rates API reference</title>
  <link rel="stylesheet" href="/docs/assets/swagger-ui.css">
  <style>body { margin: 0 } .topbar { display: none }</style>
</head>
<body>
  <div id="reference"></div>
  <script src="/docs/assets/swagger-ui-bundle.js"></script>
  <script src="/docs/assets/init.js"></script>
</body>
</html>`;

const INIT = `window.ui = SwaggerUIBundle({
  url: '/api/v1/openapi.json',
  dom_id: '#reference',
  deepLinking: true,
  docExpansion: 'list',
  defaultModelsExpandDepth: 0,
  persistAuthorization: true,
});`;

/**
 * Swagger UI runs its own scripts and styles from this origin, sets inline styles as it renders,
 * and fetches the document (and, to try a route, the API) from here too.
 */
const DOCS_POLICY = [
  "default-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "base-uri 'none'",
  "object-src 'none'",
  "frame-ancestors 'none'",
].join('; ');

export function mountDocs(router: Router): void {
  const dir = path.dirname(require.resolve('swagger-ui-dist/package.json'));
  const files = new Map(Object.entries(ASSETS).map(([name, type]) => [name, { type, body: fs.readFileSync(path.join(dir, name)) }]));
  files.set('init.js', { type: 'application/javascript; charset=utf-8', body: Buffer.from(INIT) });

  router.get('/docs', (ctx) => {
    ctx.set('Content-Security-Policy', DOCS_POLICY);
    ctx.type = 'text/html; charset=utf-8';
    ctx.set('Cache-Control', 'public, max-age=300');
    ctx.body = PAGE;
  });
  router.get('/docs/assets/:name', (ctx) => {
    const file = files.get(ctx.params.name ?? '');
    if (!file) return;
    ctx.type = file.type;
    ctx.set('Cache-Control', 'public, max-age=86400');
    ctx.body = file.body;
  });
}
