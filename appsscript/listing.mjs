#!/usr/bin/env node
/**
 * `npm run addon:listing`: what to enter in the Google Workspace Marketplace SDK (App
 * Configuration and Store Listing), from appsscript/listing/listing.json, with the terms, privacy,
 * support and help addresses built from PUBLIC_URL (or `--public-url https://…`): the service's own
 * pages, in each language. Google only accepts https addresses it can reach.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const listing = JSON.parse(readFileSync(path.join(here, 'listing', 'listing.json'), 'utf8'));

function fail(message) {
  console.error(`addon:listing: ${message}`);
  process.exit(1);
}

let given = process.env.PUBLIC_URL;
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
  const m = /^--public-url(?:=(.*))?$/.exec(argv[i]);
  if (!m) fail(`unknown argument "${argv[i]}" (options: --public-url https://…)`);
  given = m[1] ?? argv[++i];
}
if (!given?.trim()) fail('set PUBLIC_URL (or --public-url) to the https address of your server: the listing links its privacy, terms and help pages');
let origin;
try {
  origin = new URL(given.trim());
} catch {
  fail(`PUBLIC_URL must be an https:// address (got "${given}")`);
}
if (origin.protocol !== 'https:') fail(`PUBLIC_URL must be an https:// address (got "${given}")`);
const base = `${origin.origin}${origin.pathname.replace(/\/+$/, '')}`;

const out = [];
out.push(`Application name: ${listing.appName}`);
out.push(`Category: ${listing.category}`);
out.push('OAuth scopes (App Configuration; the same as appsscript/appsscript.json):');
for (const scope of listing.oauthScopes) out.push(`  ${scope}`);
out.push('Graphics (appsscript/listing/):');
for (const [what, file] of Object.entries(listing.graphics)) out.push(`  ${what}: ${file}`);
for (const lang of ['en', 'es']) {
  out.push(`[${lang}]`);
  for (const [what, pattern] of Object.entries(listing.urls)) out.push(`  ${what} URL: ${pattern.replace('{PUBLIC_URL}', base).replace('{lang}', lang)}`);
  out.push(`  Short description: ${listing[lang].shortDescription}`);
  out.push(`  Detailed description:\n${listing[lang].detailedDescription.replace(/^/gm, '    ')}`);
}
console.log(out.join('\n'));
