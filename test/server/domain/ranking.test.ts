import { rankInstitutions } from '../../../server/domain/ranking';
import type { Institution } from '../../../shared/types';

const quote = (id: string, buy: number, sell: number, stale = false): Institution => ({
  id,
  name: id.toUpperCase(),
  type: 'private_bank',
  buy,
  sell,
  spread: sell - buy,
  updatedAt: null,
  stale,
});

describe('rankInstitutions', () => {
  const quotes = [quote('a', 500, 512), quote('b', 503, 511), quote('c', 503, 515), quote('d', 506, 509, true), quote('e', 499, 511)];

  it('ranks buy by the highest buy first, fresh before stale, ties sharing a rank', () => {
    const ranking = rankInstitutions(quotes, 'buy', { buy: 501.5, sell: 510 });
    expect(ranking.map((r) => [r.id, r.rank, r.vsOfficial])).toEqual([
      ['b', 1, 1.5],
      ['c', 1, 1.5],
      ['a', 3, -1.5],
      ['e', 4, -2.5],
      ['d', 5, 4.5],
    ]);
  });

  it('ranks sell by the lowest sell first', () => {
    const ranking = rankInstitutions(quotes, 'sell', { buy: 501.5, sell: 510 });
    expect(ranking.map((r) => [r.id, r.rank, r.vsOfficial])).toEqual([
      ['b', 1, 1],
      ['e', 1, 1],
      ['a', 3, 2],
      ['c', 4, 5],
      ['d', 5, -1],
    ]);
  });

  it('gives null vsOfficial without an official rate, and keeps every field of the institution', () => {
    const [first] = rankInstitutions([quote('a', 500, 512)], 'buy', null);
    expect(first).toEqual({ rank: 1, ...quote('a', 500, 512), vsOfficial: null });
  });

  it('ranks nothing when there is nothing', () => {
    expect(rankInstitutions([], 'sell', null)).toEqual([]);
  });
});
