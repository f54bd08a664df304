/** GET /purposes: the table as the API lists it, keyed, in JSON and CSV. */
import { parse } from 'csv-parse/sync';
import { PURPOSES } from '../../../shared/purposes';
import type { PurposeInfo } from '../../../shared/types';
import { startTestApp, type TestApp } from '../../helpers/app';

describe('GET /purposes', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('lists every purpose with its side, day, close day, rule, basis, note and aliases', async () => {
    const { status, body } = await t.get('/purposes');
    expect(status).toBe(200);
    const list = body.data as PurposeInfo[];
    expect(list.map((p) => [p.id, p.side, p.close])).toEqual([
      ['invoice', 'sell', 'month-end'],
      ['income-tax', 'sell', 'fiscal-year-end'],
      ['consumer-pay-colones', 'sell', 'month-end'],
      ['consumer-pay-dollars', 'buy', 'month-end'],
      ['customs', 'sell', 'month-end'],
    ]);
    const customs = list.find((p) => p.id === 'customs');
    expect(customs).toEqual({
      id: 'customs',
      aliases: ['aduana'],
      side: 'sell',
      day: { es: 'la fecha de aceptación de la declaración aduanera', en: 'the date the customs declaration is accepted' },
      close: 'month-end',
      rule: PURPOSES[4]?.rule,
      basis: 'Ley General de Aduanas (Ley 7557), art. 257',
      note: PURPOSES[4]?.note,
    });
  });

  it('needs a key, like the data routes', async () => {
    const { status, body } = await t.get('/purposes', { 'x-api-key': '' });
    expect(status).toBe(401);
    expect(body.error).toBe('UNAUTHORIZED');
  });

  it('as CSV: one row per purpose, nested texts as _es and _en columns, aliases in one cell', async () => {
    const { status, text, headers } = await t.get('/purposes?format=csv');
    expect(status).toBe(200);
    expect(headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const rows = parse(text, { columns: true }) as Record<string, string>[];
    expect(Object.keys(rows[0] ?? {})).toEqual(['id', 'aliases', 'side', 'day_es', 'day_en', 'close', 'rule_es', 'rule_en', 'basis', 'note_es', 'note_en']);
    expect(rows.map((r) => r.id)).toEqual(['invoice', 'income-tax', 'consumer-pay-colones', 'consumer-pay-dollars', 'customs']);
    expect(rows[0]).toEqual(expect.objectContaining({ aliases: 'factura iva', side: 'sell', rule_es: PURPOSES[0]?.rule.es }));
  });
});
