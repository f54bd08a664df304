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
    ['a hung server (node-postgres query_timeout)', new Error('Query read timeout')],
    ['a statement cancelled by statement_timeout', withCode('57014')],
    ['a connection that could not be opened in time', new Error('timeout expired')],
    ['a connection closed under a query', new Error('Client was closed and is not queryable')],
    [
      'a pool timeout further down',
      new Error('lookup failed', { cause: new Error('wrapped', { cause: Object.assign(new Error('Knex: Timeout'), { name: 'KnexTimeoutError' }) }) }),
    ],
    ['a socket file that is gone', Object.assign(new Error('connect ENOENT /data/.s.PGSQL.5432'), { code: 'ENOENT', syscall: 'connect' })],
    // Node's own socket errors come from another realm than the test's under jest: read by shape.
    ['an error of another realm', { name: 'Error', message: 'connect ECONNREFUSED 127.0.0.1:5432', code: 'ECONNREFUSED' }],
  ])('says yes for %s', (_, error) => {
    expect(isDatabaseUnreachable(error)).toBe(true);
  });

  it.each([
    ['a syntax error', withCode('42601')],
    ['a missing table', withCode('42P01')],
    ['a plain error', new Error('boom')],
    ['a file that is not there', Object.assign(new Error('ENOENT: no such file'), { code: 'ENOENT', syscall: 'open' })],
    ['not an error', 'ECONNREFUSED'],
  ])('says no for %s', (_, error) => {
    expect(isDatabaseUnreachable(error)).toBe(false);
  });
});
