/**
 * The table of purposes (shared/purposes.ts) against the contract: each purpose's side and day,
 * the basis each one cites, the Spanish aliases, and a note that it is not legal advice. Written
 * out here rather than read from the table, so that a slip in the data fails.
 */
import { PURPOSE_IDS, PURPOSES, purposeOf } from '../../../shared/purposes';
import { closeDayOf, citationOf } from '../../../server/domain/purposes';

/** The contract's table: side, the day a close uses, and words the basis must cite. */
const CONTRACT = {
  invoice: { side: 'sell', close: 'month-end', cites: ['Valor Agregado', 'Ley 9635'], alias: 'factura' },
  'income-tax': { side: 'sell', close: 'fiscal-year-end', cites: ['Renta', 'Ley 9635'], alias: 'renta' },
  'consumer-pay-colones': { side: 'sell', close: 'month-end', cites: ['Ley 7558), art. 48', '37899-MEIC), art. 36'], alias: 'consumidor-colones' },
  'consumer-pay-dollars': { side: 'buy', close: 'month-end', cites: ['Ley 7558), art. 48', '37899-MEIC), art. 36'], alias: 'consumidor-dolares' },
  customs: { side: 'sell', close: 'month-end', cites: ['Ley General de Aduanas', 'art. 257'], alias: 'aduana' },
} as const;

describe('the table of purposes', () => {
  it('has one entry per purpose, in the order of PURPOSE_IDS', () => {
    expect(PURPOSES.map((p) => p.id)).toEqual([...PURPOSE_IDS]);
    expect([...PURPOSE_IDS].sort()).toEqual(Object.keys(CONTRACT).sort());
  });

  it.each(Object.entries(CONTRACT))('%s: its side, its close day, its basis and its Spanish alias', (id, expected) => {
    const purpose = purposeOf(id as keyof typeof CONTRACT);
    expect(purpose.side).toBe(expected.side);
    expect(purpose.close).toBe(expected.close);
    for (const words of expected.cites) expect(purpose.basis).toContain(words);
    expect(purpose.aliases).toContain(expected.alias);
    // The rule names the side it gives, in both languages.
    expect(purpose.rule.es).toContain(expected.side === 'sell' ? 'de venta' : 'de compra');
    expect(purpose.rule.en).toContain(expected.side === 'sell' ? 'sell rate' : 'buy rate');
    expect(purpose.day.es.length).toBeGreaterThan(0);
    expect(purpose.day.en.length).toBeGreaterThan(0);
  });

  it('every entry says, in both languages, that the rule is not legal advice', () => {
    for (const purpose of PURPOSES) {
      expect([purpose.id, /no constituye asesoría legal/.test(purpose.note.es), /not legal or tax advice/.test(purpose.note.en)]).toEqual([
        purpose.id,
        true,
        true,
      ]);
    }
  });

  it('aliases are lower case, unique and never an id, so either can name one purpose only', () => {
    const names = PURPOSES.flatMap((p) => [p.id, ...p.aliases]);
    expect(new Set(names).size).toBe(names.length);
    for (const alias of PURPOSES.flatMap((p) => p.aliases)) expect(alias).toMatch(/^[a-z-]+$/);
  });
});

describe('the readings of the table', () => {
  it('a citation is the id, side, rule, basis and note, and nothing else', () => {
    const customs = purposeOf('customs');
    expect(citationOf(customs)).toEqual({ id: 'customs', side: 'sell', rule: customs.rule, basis: customs.basis, note: customs.note });
  });

  it('a close applies income-tax to December 31 of the month’s year, the others to the month’s last day', () => {
    expect(closeDayOf(purposeOf('income-tax'), '2024-03')).toBe('2024-12-31');
    expect(closeDayOf(purposeOf('income-tax'), '2024-12')).toBe('2024-12-31');
    expect(closeDayOf(purposeOf('invoice'), '2024-02')).toBe('2024-02-29');
    expect(closeDayOf(purposeOf('customs'), '2023-02')).toBe('2023-02-28');
    expect(closeDayOf(purposeOf('consumer-pay-dollars'), '2024-11')).toBe('2024-11-30');
  });

  it('an id without an entry is a defect of the table, said as such', () => {
    expect(() => purposeOf('nope' as never)).toThrow('No entry for the purpose "nope" in shared/purposes.ts');
  });
});
