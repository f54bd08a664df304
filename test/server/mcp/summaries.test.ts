/**
 * The one-line summary of a tool's answer: plain text on one line whatever the upstream names
 * hold, and on a demo instance it says first that the data is simulated.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { plainText as oneLine } from '../../../server/domain/plain-text';
import { citationOf } from '../../../server/domain/purposes';
import { TOOLS } from '../../../server/mcp/tools';
import { purposeOf } from '../../../shared/purposes';
import type { MonthClose, RateAnswer } from '../../../shared/types';
import { createBankingStore } from '../../../server/store/banking';
import { startTestApp, type TestApp } from '../../helpers/app';
import { connect } from './client';
import { NOW, seed } from './fixture';

const summaryOf = async (client: Client, name: string, args: Record<string, unknown>) => {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const [first] = result.content;
  return first?.type === 'text' ? first.text : undefined;
};

/** Any control character (C0, DEL, C1), line or paragraph separator, or bidirectional control. */
const UNSAFE = /[\p{Cc}\u2028\u2029\u202a-\u202e\u2066-\u2069]/u;

describe('the summary line (plainText)', () => {
  it('turns line breaks and tabs into single spaces', () => {
    expect(oneLine('Casa\nde\r\ncambio\tDos\u0085y\u2028Tres')).toBe('Casa de cambio Dos y Tres');
    expect(oneLine('Un  nombre   con espacios \u2029')).toBe('Un nombre con espacios');
  });

  it('takes out escape sequences’ controls, other controls and bidirectional overrides (a space for each run)', () => {
    expect(oneLine('\u001b[31mRoja\u001b[0m')).toBe('[31mRoja [0m');
    expect(oneLine('Banco\u202e\u2066 al revés\u2069')).toBe('Banco al revés');
    expect(oneLine('Bell\u0007\u009b\u007f\u0000end')).toBe('Bell end');
  });

  it('leaves markup and every other character as it is: the line is text', () => {
    expect(oneLine('<script>alert(1)</script> Casa Html & "Cía" ₡ ñ')).toBe('<script>alert(1)</script> Casa Html & "Cía" ₡ ñ');
  });
});

describe('the month close for a purpose', () => {
  const summarize = (data: MonthClose) => TOOLS.find((tool) => tool.name === 'get_month_close')?.summarize(data);
  const close: MonthClose = {
    month: '2024-03',
    from: '2024-03-01',
    to: '2024-03-31',
    daysInMonth: 31,
    daysPresent: 31,
    missing: [],
    complete: true,
    closing: null,
    buy: { average: 505, min: 504, max: 506, first: 504, last: 506, change: 2 },
    sell: { average: 511, min: 510, max: 512, first: 510, last: 512, change: 2 },
  };

  it('names the rate of the day the rule names, or says it has none', () => {
    const purpose = citationOf(purposeOf('income-tax'));
    expect(summarize({ ...close, purpose, purposeRate: { date: '2024-12-31', side: 'sell', value: 510.61 } })).toBe(
      "2024-03: 31 of 31 days with a rate (complete); no rate on the month's last day; average sell ₡511.00; for income-tax, the sell rate of 2024-12-31: ₡510.61",
    );
    expect(summarize({ ...close, purpose, purposeRate: { date: '2024-12-31', side: 'sell', value: null } })).toMatch(/the sell rate of 2024-12-31: no rate$/);
    expect(summarize(close)).toMatch(/average sell ₡511\.00$/);
  });
});

describe('a single EUR rate', () => {
  const summarize = (name: string, data: RateAnswer) => TOOLS.find((tool) => tool.name === name)?.summarize(data);
  const derived = { indicator: '333', quote: 'usdPerUnit', published: 1.1653, usdDate: '2026-11-20' } as const;
  const provisional: RateAnswer = {
    date: '2026-11-20',
    currencyFrom: 'EUR',
    currencyTo: 'CRC',
    buy: null,
    sell: 597.59,
    source: 'Hacienda',
    fetchedAt: '2026-11-20T16:00:00.000Z',
    derived,
  };

  it('says Hacienda’s record of today is provisional, and that it has no buy', () => {
    expect(summarize('get_latest_rate', provisional)).toBe('Latest EUR rate (provisional, Hacienda), 2026-11-20: no buy, sell ₡597.59');
    expect(summarize('get_rate', provisional)).toBe('EUR rate (provisional, Hacienda) for 2026-11-20: no buy, sell ₡597.59');
  });

  it('says the central bank’s is derived', () => {
    const { date, currencyFrom, currencyTo, sell, fetchedAt } = provisional;
    const bccr: RateAnswer = { date, currencyFrom, currencyTo, buy: 590.3, sell, source: 'BCCR', fetchedAt, derived };
    expect(summarize('get_rate', bccr)).toBe('EUR rate (derived) for 2026-11-20: buy ₡590.30, sell ₡597.59');
  });
});

describe('tool summaries over POST /api/v1/mcp', () => {
  describe('names from the central bank’s site', () => {
    let t: TestApp;
    let client: Client;
    beforeAll(async () => {
      t = await startTestApp({ clock: () => NOW });
      await seed(t);
      await createBankingStore(t.database.db).saveDay({
        date: '2025-01-30',
        source: 'bccr-site',
        fetchedAt: NOW,
        institutions: [{ id: 'casa-html', name: '<script>alert(1)</script>\u0007 Casa\nHtml\u001b[31m\u202e', type: 'exchange_house', known: false }],
        quotes: [{ institutionId: 'casa-html', buy: 510, sell: 511, updatedAt: new Date('2025-01-30T14:30:00Z') }],
      });
      client = await connect(`${t.api}/mcp`, t.key);
    });
    afterAll(async () => {
      await client.close();
      await t.close();
    });

    it('prints an institution’s name as plain text on one line, with no control character', async () => {
      const summary = await summaryOf(client, 'get_best_institution', { operation: 'buy' });
      expect(summary).toBe('Best place to sell dollars on 2025-01-30: <script>alert(1)</script> Casa Html [31m, which buys at ₡510.00');
      expect(summary).not.toMatch(UNSAFE);
    });
  });

  describe('on a demo instance', () => {
    let t: TestApp;
    let client: Client;
    beforeAll(async () => {
      t = await startTestApp({ clock: () => NOW, demo: true });
      await seed(t);
      client = await connect(`${t.api}/mcp`, t.key);
    });
    afterAll(async () => {
      await client.close();
      await t.close();
    });

    it('says first that the data is simulated', async () => {
      expect(await summaryOf(client, 'get_latest_rate', {})).toBe('Demo data, simulated: Latest official rate, 2025-01-30: buy ₡506.55, sell ₡512.85');
    });

    it('says it in Spanish where the summary is in Spanish', async () => {
      expect(await summaryOf(client, 'get_insights', { locale: 'es' })).toBe(
        'Datos de demostración, simulados: Del 1 al 30 de enero de 2025, el colón se apreció: venta ₡520,10 → ₡512,85 (−1,4 %)',
      );
    });
  });
});
