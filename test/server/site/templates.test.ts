/** The site's pure pieces: escaping templates, number and date formats, widget options, embed code. */
import * as format from '../../../server/site/assets/format';
import { html } from '../../../server/site/html';
import { embedSnippet } from '../../../server/site/pages/landing';
import { parseWidgetCurrency, parseWidgetQuery, widgetDataUrl } from '../../../server/site/widgets';

describe('html', () => {
  it('escapes every interpolated value, and only those', () => {
    const name = `<img src=x onerror="alert('x')"> & co`;
    expect(html`<p title="${name}">${name}</p>`.value).toBe(
      '<p title="&lt;img src=x onerror=&quot;alert(&#39;x&#39;)&quot;&gt; &amp; co">&lt;img src=x onerror=&quot;alert(&#39;x&#39;)&quot;&gt; &amp; co</p>',
    );
  });

  it('nests templates and lists without escaping them twice, and drops empty values', () => {
    const items = ['a<b', 'c'].map((s) => html`<li>${s}</li>`);
    expect(html`<ul>${items}</ul>${null}${undefined}${false}${0}`.value).toBe('<ul><li>a&lt;b</li><li>c</li></ul>0');
  });
});

describe('format (shared by the server and the widgets)', () => {
  it.each([
    [468.29, '₡468,29', '₡468.29'],
    [474.1, '₡474,10', '₡474.10'],
    [506, '₡506,00', '₡506.00'],
    [0.5, '₡0,50', '₡0.50'],
    [1234.5, '₡1\u00a0234,50', '₡1,234.50'],
    [-12.3, '-₡12,30', '-₡12.30'],
    // Below 10 colones a derived rate keeps its 6 significant digits, never fewer than two decimals.
    [3.40123, '₡3,40123', '₡3.40123'],
    [3.4, '₡3,40', '₡3.40'],
    [0.0199123, '₡0,0199123', '₡0.0199123'],
    [0.00000123456, '₡0,00000123456', '₡0.00000123456'],
    [10.123, '₡10,12', '₡10.12'],
  ])('writes %d as %s in Spanish and %s in English', (value, es, en) => {
    expect(format.money(value, 'es')).toBe(es);
    expect(format.money(value, 'en')).toBe(en);
  });

  it.each([
    [0.0234145, true],
    [0.999999, true],
    [-0.5, true],
    [1, false],
    [3.40123, false],
    [549.49, false],
  ])('says whether %d is too long for the full-size figures: %s', (value, compact) => {
    expect(format.compact(value)).toBe(compact);
  });

  it.each([
    ['2025-01-15', '15 de enero de 2025', 'January 15, 2025'],
    ['2025-09-30', '30 de septiembre de 2025', 'September 30, 2025'],
    ['2024-12-01', '1 de diciembre de 2024', 'December 1, 2024'],
  ])('writes %s as "%s" and "%s", whatever the time zone', (iso, es, en) => {
    expect(format.date(iso, 'es')).toBe(es);
    expect(format.date(iso, 'en')).toBe(en);
  });
});

describe('parseWidgetQuery', () => {
  it.each([
    [{}, { theme: 'auto', refresh: 60 }],
    [{ theme: 'dark' }, { theme: 'dark', refresh: 60 }],
    [{ theme: ' Light ' }, { theme: 'light', refresh: 60 }],
    [{ theme: 'sepia' }, { theme: 'auto', refresh: 60 }],
    [{ theme: ['dark', 'light'] }, { theme: 'auto', refresh: 60 }],
    [{ refresh: '1' }, { theme: 'auto', refresh: 1 }],
    [{ refresh: '0' }, { theme: 'auto', refresh: 1 }],
    [{ refresh: '90' }, { theme: 'auto', refresh: 90 }],
    [{ refresh: '999999' }, { theme: 'auto', refresh: 3600 }],
    [{ refresh: '-5' }, { theme: 'auto', refresh: 60 }],
    [{ refresh: '1.5' }, { theme: 'auto', refresh: 60 }],
    [{ refresh: ['5', '6'] }, { theme: 'auto', refresh: 60 }],
  ])('reads %j as %j', (query, expected) => {
    expect(parseWidgetQuery(query)).toEqual(expected);
  });
});

describe('parseWidgetCurrency', () => {
  it.each([
    [{}, { code: 'USD' }],
    [{ currency: 'EUR' }, { code: 'EUR' }],
    [{ currency: 'jpy' }, { code: 'JPY' }],
    [{ currency: ' Usd ' }, { code: 'USD' }],
    [{ currency: 'XYZ' }, { refused: 'XYZ' }],
    [{ currency: '' }, { refused: '' }],
    [{ currency: 'CRC' }, { refused: 'CRC' }],
    [{ currency: ['EUR', 'USD'] }, { refused: null }],
  ])('reads %j as %j', (query, expected) => {
    expect(parseWidgetCurrency(query)).toEqual(expected);
  });

  it('polls the plain address for the dollar, and with the code for another currency', () => {
    expect(widgetDataUrl('USD')).toBe('/widget-data.json');
    expect(widgetDataUrl('EUR')).toBe('/widget-data.json?currency=EUR');
  });
});

it('writes the embed code of each widget at its suggested size, shrinking with a narrower column', () => {
  expect(embedSnippet('https://tipo.example', 'es', 'card')).toBe(
    '<iframe src="https://tipo.example/es/widget" width="360" height="150" title="Tipo de cambio oficial USD/CRC del BCCR" style="border:0;max-width:100%" loading="lazy"></iframe>',
  );
  expect(embedSnippet('https://tipo.example', 'en', 'banner')).toMatch(/^<iframe src="https:\/\/tipo\.example\/en\/banner" width="640" height="90" /);
});
