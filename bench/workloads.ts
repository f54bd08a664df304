/**
 * What each measurement asks for: a path per request. Cached routes ask the same thing every time;
 * uncached ones ask for a different window on every request, in an order that never repeats a
 * window before all of them were asked (more than the response cache keeps: see `scrambled`), so
 * every request misses the cache and does the route's whole work.
 */
import { addDays, daysBetween } from '../shared/dates';
import { SYNTHETIC_FIRST_DATE } from '../server/demo/synthetic-history';
import { crossDates } from './seed';

export const API = '/api/v1';

/**
 * Sent with every request, as clients do: Node's fetch asks this of an HTTPS API (browsers also
 * add zstd), and the server compresses answers over 1 KB (koa-compress, brotli first).
 * BENCH_ACCEPT_ENCODING=identity measures uncompressed answers instead.
 */
export const ACCEPT_ENCODING = process.env.BENCH_ACCEPT_ENCODING ?? 'br, gzip, deflate';

/**
 * More uncached answers than the response cache can hold: it keeps 32 MB of bodies
 * (server/http/response-cache.ts), about 1,300 of the smallest uncached windows (25 KB charts).
 */
const RESPONSE_CACHE_ENTRIES = 5000;

export interface Workload {
  id: string;
  /** As shown in the tables. */
  name: string;
  /** Sends a rotating `x-api-key` (and so goes through the key, the limit and the quota). */
  keyed: boolean;
  path(): string;
  /** GET unless said; a POST carries `body` (the MCP row). */
  method?: 'GET' | 'POST';
  body?: string;
  headers?: Record<string, string>;
}

/**
 * An MCP client's tool call, as an assistant makes it: one POST, one tool call (a month of
 * history), answered in JSON. Each POST builds the MCP server and transport it needs (stateless).
 */
const MCP_CALL = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_history', arguments: { days: 30 } } });

const greatestCommonDivisor = (a: number, b: number): number => (b === 0 ? a : greatestCommonDivisor(b, a % b));

/**
 * 0 … size-1 in a scrambled order (a stride coprime with size, about 0.618 of it), each once per
 * `size` calls. An answer asked again only after `size` others were computed and kept has been
 * pushed out of a cache of fewer entries, so with size over 5,000 every request is a miss.
 */
export function scrambled(size: number): () => number {
  if (size <= RESPONSE_CACHE_ENTRIES) throw new Error(`a window space of ${size} would hit the response cache`);
  let stride = Math.floor(size * 0.618);
  while (greatestCommonDivisor(stride, size) !== 1) stride++;
  let i = 0;
  return () => (i++ * stride) % size;
}

/** A small deterministic generator, so the mixed workload's order is the same in every run. */
function seededRandom(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A `name=value` pair with the characters that bit i of `variant` picks percent-encoded, the i-th
 * of name and value together (`month=2025-01`, `%6Donth=2025-01`, `m%6Fnth=2025-01`…): the same
 * query to the server, which decodes names and values before reading them, but another query
 * string, which is what the response cache keeps its answers under (server/http/mount.ts).
 */
function spelt(pair: string, variant: number): string {
  const encoded = (text: string, firstBit: number) =>
    [...text].map((c, i) => (variant & (1 << (firstBit + i)) ? `%${c.charCodeAt(0).toString(16).toUpperCase()}` : c)).join('');
  const [name = '', value = ''] = pair.split('=');
  return `${encoded(name, 0)}=${encoded(value, name.length)}`;
}

interface Queries {
  size: number;
  at(index: number): string;
}

/**
 * Each of `pairs` (`name=value`, all of one length) in every spelling but the plain one (which a
 * cached row asks): pairs × (2^(characters − 1) − 1) queries, walked by `scrambled` so that none
 * is asked twice before all were, far more than any run sends.
 */
function respelt(pairs: readonly string[]): Queries {
  // Every non-empty subset of a pair's characters other than `=`.
  const spellings = 2 ** ((pairs[0] ?? '').length - 1) - 1;
  return { size: pairs.length * spellings, at: (index) => spelt(pairs[index % pairs.length] as string, Math.floor(index / pairs.length) + 1) };
}

/**
 * The queries of the uncached close: each month from the first of the history to today's, in
 * every spelling of `month=YYYY-MM` but the plain one, some 530 × 4,095: two million queries, so
 * every one is a miss however the cache is bounded (in answers or in bytes: some 530 months of
 * 350–490 bytes alone would fit in either), and the server does the route's whole work.
 */
function closeQueries(today: string): Queries {
  const [firstYear, firstMonth] = SYNTHETIC_FIRST_DATE.split('-').map(Number) as [number, number];
  const [year, month] = today.split('-').map(Number) as [number, number];
  const months = (year - firstYear) * 12 + (month - firstMonth) + 1;
  const pair = (n: number) => {
    const m = firstMonth - 1 + n;
    return `month=${firstYear + Math.floor(m / 12)}-${String((m % 12) + 1).padStart(2, '0')}`;
  };
  return respelt(Array.from({ length: months }, (_, n) => pair(n)));
}

/**
 * The queries of the uncached reads by date: each business day since 2000 (the days the euro has,
 * some 7,000, asked of the dollar too so both read the same days) in every spelling of
 * `date=YYYY-MM-DD` but the plain one, some 7,000 × 16,383. Answers of 300 bytes are so small that
 * the cache's 16 MB keeps tens of thousands: only spellings make sure none is asked again.
 */
const dateQueries = (today: string): Queries => respelt(crossDates(today).map((date) => `date=${date}`));

const fixed = (id: string, name: string, path: string, keyed = true): Workload => ({ id, name, keyed, path: () => path });

/**
 * One setup's workloads. Made per server: each keeps its own walk through the windows, so what one
 * server is asked never depends on what another was asked in between.
 */
export function createWorkloads(today: string): Record<string, Workload> {
  const historyDays = daysBetween(SYNTHETIC_FIRST_DATE, today);
  const day = (offset: number) => addDays(SYNTHETIC_FIRST_DATE, offset);

  const chartDays = scrambled(10_001);
  const rangeStart = scrambled(historyDays - 366);
  const statsStart = scrambled(historyDays - 365);
  const close = closeQueries(today);
  const closeQuery = scrambled(close.size);
  const dates = dateQueries(today);
  // One walk each, the same for both: the dollar's and the euro's rows ask the same days.
  const [dollarDate, euroDate] = [scrambled(dates.size), scrambled(dates.size)];
  const random = seededRandom(2026);

  const workloads: Workload[] = [
    fixed('latest', '/exchange-rate/latest', `${API}/exchange-rate/latest`),
    fixed('latest-eur', '/exchange-rate/latest?currency=EUR', `${API}/exchange-rate/latest?currency=EUR`),
    fixed('date', '/exchange-rate?date=', `${API}/exchange-rate?date=2025-01-15`),
    fixed('date-eur', '/exchange-rate?date=&currency=EUR', `${API}/exchange-rate?date=2025-01-15&currency=EUR`),
    fixed('convert', '/convert', `${API}/convert?amount=1234.56&from=USD&to=CRC&rate=sell`),
    fixed('banking', '/banking/best', `${API}/banking/best?operation=sell`),
    fixed('range', '/exchange-rate/range, 366 days', `${API}/exchange-rate/range?from=2024-01-01&to=2025-01-01`),
    fixed('stats', '/exchange-rate/stats monthly, whole history', `${API}/exchange-rate/stats?period=monthly&from=1983-01-01&to=2100-12-31`),
    {
      id: 'chart-uncached',
      name: 'uncached /exchange-rate/chart, 10,000–20,000 days',
      keyed: true,
      path: () => `${API}/exchange-rate/chart?days=${10_000 + chartDays()}&points=500`,
    },
    {
      id: 'range-uncached',
      name: 'uncached /exchange-rate/range, 366 days',
      keyed: true,
      path: () => {
        const from = rangeStart();
        return `${API}/exchange-rate/range?from=${day(from)}&to=${day(from + 366)}`;
      },
    },
    {
      id: 'stats-uncached',
      name: 'uncached /exchange-rate/stats monthly, 1 year–whole history',
      keyed: true,
      path: () => {
        // From a day not asked for lately, to anywhere from a year later to today.
        const from = statsStart();
        const to = from + 365 + Math.floor(random() * (historyDays - 365 - from));
        return `${API}/exchange-rate/stats?period=monthly&from=${day(from)}&to=${day(to)}`;
      },
    },
    {
      id: 'date-uncached',
      name: 'uncached /exchange-rate?date=, a business day since 2000',
      keyed: true,
      path: () => `${API}/exchange-rate?${dates.at(dollarDate())}`,
    },
    {
      id: 'date-uncached-eur',
      name: 'uncached /exchange-rate?date=&currency=EUR, the same days',
      keyed: true,
      path: () => `${API}/exchange-rate?${dates.at(euroDate())}&currency=EUR`,
    },
    fixed('close', '/exchange-rate/close, 2025-01', `${API}/exchange-rate/close?month=2025-01`),
    {
      id: 'close-uncached',
      name: 'uncached /exchange-rate/close, a month since 1983',
      keyed: true,
      path: () => `${API}/exchange-rate/close?${close.at(closeQuery())}`,
    },
    {
      id: 'mcp',
      name: 'MCP tool call (POST /mcp, get_history 30 days)',
      keyed: true,
      path: () => `${API}/mcp`,
      method: 'POST',
      body: MCP_CALL,
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    },
    fixed('health', '/health (no key)', `${API}/health`, false),
    fixed('livez', '/livez (no key)', '/livez', false),
  ];
  const byId = Object.fromEntries(workloads.map((w) => [w.id, w]));
  byId.mixed = mixed(byId, random);
  return byId;
}

/**
 * Keyed traffic as a client base might send it: mostly the small cached answers, some heavy cached
 * ones, a few month closes (a bookkeeper's question, asked monthly, mostly of a recent month that
 * stays cached), and 16 % uncached answers. Percentages, served in a shuffled but fixed order.
 */
export const MIX: Record<string, number> = {
  latest: 37,
  date: 10,
  convert: 15,
  banking: 10,
  range: 5,
  stats: 5,
  'chart-uncached': 5,
  'range-uncached': 5,
  'stats-uncached': 5,
  close: 2,
  'close-uncached': 1,
};

const isUncached = (id: string) => id.endsWith('-uncached');

function mixed(byId: Record<string, Workload>, random: () => number): Workload {
  const slots = Object.entries(MIX).flatMap(([id, percent]) => Array.from({ length: percent }, () => byId[id] as Workload));
  for (let i = slots.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [slots[i], slots[j]] = [slots[j] as Workload, slots[i] as Workload];
  }
  const uncached = Object.entries(MIX).reduce((sum, [id, percent]) => sum + (isUncached(id) ? percent : 0), 0);
  let i = 0;
  return {
    id: 'mixed',
    name: `mixed (${100 - uncached} % cached, ${uncached} % uncached)`,
    keyed: true,
    path: () => (slots[i++ % slots.length] as Workload).path(),
  };
}
