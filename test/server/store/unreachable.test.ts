import { isDatabaseUnreachable } from '../../../server/store/database';

describe('isDatabaseUnreachable', () => {
  const withCode = (code: string) => Object.assign(new Error('failed'), { code });

  it.each([
    ['a refused connection', withCode('ECONNREFUSED')],
    ['a server shutting down', withCode('57P01')],
    ['a connection failure', withCode('08006')],
    ['a pool that could not get a connection', Object.assign(new Error('Knex: Timeout acquiring a connection'), { name: 'KnexTimeoutError' })],
    ['a dropped connection', new Error('Connection terminated unexpectedly')],
    ['a cause further down', new Error('query failed', { cause: withCode('ECONNRESET') })],
    ['one of several attempts', new AggregateError([new Error('x'), withCode('ECONNREFUSED')], 'all failed')],
  ])('says yes for %s', (_, error) => {
    expect(isDatabaseUnreachable(error)).toBe(true);
  });

  it.each([
    ['a syntax error', withCode('42601')],
    ['a missing table', withCode('42P01')],
    ['a plain error', new Error('boom')],
    ['not an error', 'ECONNREFUSED'],
  ])('says no for %s', (_, error) => {
    expect(isDatabaseUnreachable(error)).toBe(false);
  });
});
