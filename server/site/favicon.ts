/**
 * The site's icon: an SVG the pages link (`<link rel="icon">`), and /favicon.ico for what asks
 * for that address on its own (browsers on a page without the link, bookmarks, feed readers), so
 * that it is not a 404 on every visit. Both are built once, in memory, and cached for a week.
 *
 * The ICO is drawn here rather than shipped as a binary file: a 32×32 picture of the same mark
 * (a white "C" for colón on the site's accent blue), written as the one uncompressed 32-bit bitmap
 * an ICO may hold. It is 4 KB, and every browser reads that form.
 */
import type Router from '@koa/router';
import { strongEtag } from '../http/etag';
import { sendWithEtag } from './respond';

/** The site's accent colour (site.css `--accent`). */
const ACCENT = { r: 0x0b, g: 0x57, b: 0xa4 };

export const FAVICON_SVG_PATH = '/favicon.svg';

const SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#0b57a4"/><path d="M22.5 10.2A9 9 0 1 0 22.5 21.8" fill="none" stroke="#fff" stroke-width="4" stroke-linecap="round"/></svg>`;

const SIZE = 32;

/** The colour of pixel (x, y), top row first: the rounded square, with the "C" ring on it. */
function pixel(x: number, y: number): { r: number; g: number; b: number; a: number } {
  const cx = x + 0.5;
  const cy = y + 0.5;
  // Rounded corners of radius 6: outside them the pixel is transparent.
  const corner = 6;
  const dx = Math.max(corner - cx, cx - (SIZE - corner), 0);
  const dy = Math.max(corner - cy, cy - (SIZE - corner), 0);
  if (dx * dx + dy * dy > corner * corner) return { r: 0, g: 0, b: 0, a: 0 };
  const rx = cx - SIZE / 2;
  const ry = cy - SIZE / 2;
  const distance = Math.hypot(rx, ry);
  // The ring, open on the right (within 40° of the horizontal): a "C".
  const onRing = distance >= 7 && distance <= 11 && Math.abs(Math.atan2(ry, rx)) > (40 * Math.PI) / 180;
  return onRing ? { r: 255, g: 255, b: 255, a: 255 } : { ...ACCENT, a: 255 };
}

/** An ICO with one 32×32 32-bit image: ICONDIR, its one entry, then the bitmap (BITMAPINFOHEADER, pixels bottom-up, AND mask). */
export function drawIco(): Buffer {
  const pixels = SIZE * SIZE * 4;
  // One bit per pixel, each row padded to 4 bytes; all zero, as the alpha channel says what shows.
  const mask = ((SIZE + 31) >> 5) * 4 * SIZE;
  const image = 40 + pixels + mask;
  const out = Buffer.alloc(6 + 16 + image);
  out.writeUInt16LE(0, 0);
  out.writeUInt16LE(1, 2); // an icon
  out.writeUInt16LE(1, 4); // one image
  out.writeUInt8(SIZE, 6);
  out.writeUInt8(SIZE, 7);
  out.writeUInt8(0, 8); // no palette
  out.writeUInt8(0, 9);
  out.writeUInt16LE(1, 10); // planes
  out.writeUInt16LE(32, 12); // bits per pixel
  out.writeUInt32LE(image, 14);
  out.writeUInt32LE(22, 18); // where the image starts
  const header = 22;
  out.writeUInt32LE(40, header);
  out.writeInt32LE(SIZE, header + 4);
  // An ICO's bitmap counts the AND mask's rows too: twice the height.
  out.writeInt32LE(SIZE * 2, header + 8);
  out.writeUInt16LE(1, header + 12);
  out.writeUInt16LE(32, header + 14);
  out.writeUInt32LE(0, header + 16); // uncompressed
  out.writeUInt32LE(pixels + mask, header + 20);
  let at = header + 40;
  // Bottom row first, as bitmaps are stored; each pixel as B, G, R, A.
  for (let y = SIZE - 1; y >= 0; y--) {
    for (let x = 0; x < SIZE; x++) {
      const { r, g, b, a } = pixel(x, y);
      out.writeUInt8(b, at);
      out.writeUInt8(g, at + 1);
      out.writeUInt8(r, at + 2);
      out.writeUInt8(a, at + 3);
      at += 4;
    }
  }
  return out;
}

/** A week: the icon rarely changes, and its ETag makes a changed one cheap to pick up. */
const CACHE_CONTROL = 'public, max-age=604800';

export function mountFavicon(router: Router): void {
  const ico = drawIco();
  // Tagged from its bytes (sendWithEtag's default reads the body as text).
  const icoEtag = strongEtag(ico);
  router.get('/favicon.ico', (ctx) => {
    ctx.set('X-Content-Type-Options', 'nosniff');
    sendWithEtag(ctx, ico, 'image/x-icon', CACHE_CONTROL, icoEtag);
  });
  router.get(FAVICON_SVG_PATH, (ctx) => {
    ctx.set('X-Content-Type-Options', 'nosniff');
    sendWithEtag(ctx, SVG, 'image/svg+xml', CACHE_CONTROL);
  });
}
