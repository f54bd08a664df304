/** The tool table against the route list: every tool runs a route that exists, with parameters it has. */
import { describeTools } from '../../../server/mcp/definitions';
import { toRawQuery } from '../../../server/mcp/arguments';
import { apiUrlOf } from '../../../server/mcp/rest';
import { TOOLS } from '../../../server/mcp/tools';
import { routeList } from '../../../server/route-list';
import { TOOL_PARAMS } from './fixture';

describe('MCP tool definitions', () => {
  it('are built from the route list without a database', () => {
    expect(describeTools(routeList()).map((d) => [d.tool.name, d.route.path])).toEqual([
      ['get_latest_rate', '/exchange-rate/latest'],
      ['get_rate', '/exchange-rate'],
      ['convert', '/convert'],
      ['get_history', '/exchange-rate/history'],
      ['get_analytics', '/exchange-rate/analytics'],
      ['get_month_close', '/exchange-rate/close'],
      ['get_best_institution', '/banking/best'],
      ['get_monex', '/monex'],
      ['get_calendar', '/calendar'],
      ['get_insights', '/insights'],
    ]);
    expect(Object.fromEntries(TOOLS.map((tool) => [tool.name, [...tool.params]]))).toEqual(
      Object.fromEntries(Object.entries(TOOL_PARAMS).map(([name, { params }]) => [name, params])),
    );
  });

  it('refuse a tool whose route or parameter is missing, when the server starts rather than at a call', () => {
    const routes = routeList();
    expect(() => describeTools(routes.filter((r) => r.path !== '/insights'))).toThrow('The tool get_insights runs /insights, which is not among the routes');
    const withoutMonth = routes.map((r) => (r.path === '/exchange-rate/close' ? { ...r, query: {} } : r));
    expect(() => describeTools(withoutMonth)).toThrow('/exchange-rate/close has no parameter "month"');
  });
});

describe('toRawQuery', () => {
  it('writes arguments as a query string carries them, and only the tool’s own', () => {
    expect(
      toRawQuery({ amount: 1e21, days: 30, rate: 'buy', flag: true, date: null, from: undefined, other: 'x' }, [
        'amount',
        'days',
        'rate',
        'flag',
        'date',
        'from',
      ]),
    ).toEqual({
      amount: '1e+21',
      days: '30',
      rate: 'buy',
      flag: 'true',
    });
    expect(toRawQuery({ days: [1, 2], month: { y: 2025 } }, ['days', 'month'])).toEqual({ days: ['1', '2'], month: '{"y":2025}' });
    expect(toRawQuery(undefined, ['days'])).toEqual({});
  });
});

describe('apiUrlOf', () => {
  it.each([
    ['https://rates.example.com', 'https://rates.example.com/api/v1'],
    ['https://rates.example.com/', 'https://rates.example.com/api/v1'],
    ['https://rates.example.com/api/v1', 'https://rates.example.com/api/v1'],
    [' https://rates.example.com/api/v1// ', 'https://rates.example.com/api/v1'],
    ['https://example.com/rates', 'https://example.com/rates/api/v1'],
  ])('takes %j to %j', (base, api) => {
    expect(apiUrlOf(base)).toBe(api);
  });
});
