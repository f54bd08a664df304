/**
 * EXCHANGEMONEX: a figure of MONEX, the central bank's wholesale market, for one day or a range
 * of days with one request (`/monex/range`), or of the latest session when the date is blank.
 * A day without a session answers `#N/A` (the `session` measure: FALSE), never 0, which a sum or
 * an average would take for a price; a day the API does not know yet answers a short text.
 * Past days are kept 6 h (a session's figures are final once read), today's and latest a few minutes.
 */
import { MONEX_MEASURES, type MonexMeasure } from '../../shared/monex';
import type { MonexSession } from '../../shared/types';
import { type Env, fetchData, recall, remember, requireKey, servedFromCopy } from './answers';
import type { ApiError } from './api';
import { ArgumentError, single } from './args';
import { keys } from './cache';
import { CACHE_TTL } from './config';
import { isBlank, readDateCell, type DateCell } from './dates';
import { planSpans } from './rates';
import { answer, distinct, mapCells, toCells } from './shape';
import type { Cell as TableCell } from './tables';

/** What a cell of EXCHANGEMONEX holds: a figure, a short text, or the `session` measure's TRUE/FALSE. */
type Cell = TableCell | boolean;

const ALIASES: Record<string, MonexMeasure> = {
  promedio: 'average',
  minimo: 'min',
  mínimo: 'min',
  maximo: 'max',
  máximo: 'max',
  volumen: 'volume',
  monto: 'volume',
  sesion: 'session',
  sesión: 'session',
};

/** `measure`: average (default), min, max, volume or session, in English or Spanish, any case. */
export function readMonexMeasure(value: unknown, env: Env): MonexMeasure {
  const v = single(value, 'measure', env.t);
  if (isBlank(v)) return 'average';
  const text = String(v).trim().toLowerCase();
  const measure = (MONEX_MEASURES as readonly string[]).includes(text) ? (text as MonexMeasure) : ALIASES[text];
  if (!measure) throw new ArgumentError(env.t.badMonexMeasure(String(v)));
  return measure;
}

/** A day as cached: `[session, average, min, max, volume]`, the figures null without a session. */
type Kept = [boolean, number | null, number | null, number | null, number | null];

const keyOf = (env: Env, date: string) => keys.monex(env.baseUrl, date);
const isKept = (value: unknown): value is Kept => Array.isArray(value) && value.length === 5 && typeof value[0] === 'boolean';
const keep = (d: MonexSession): Kept => [d.session, d.average, d.min, d.max, d.volume];

/** The figure a cell shows. */
function figureOf(kept: Kept, measure: MonexMeasure, env: Env): Cell {
  const [session, average, min, max, volume] = kept;
  if (measure === 'session') return session;
  if (!session) return env.t.cellNoSession;
  const value = { average, min, max, volume }[measure];
  return value ?? env.t.cellNoSession;
}

/** The days asked for: from one cache read, the rest with one `/monex/range` request per span the API allows. null: not known yet. */
function daysFor(env: Env, dates: readonly string[]): Map<string, Kept | null> {
  const found = new Map<string, Kept | null>();
  if (dates.length === 0) return found;
  requireKey(env);
  const read = env.store.readAll(dates.map((d) => keyOf(env, d)));
  const missing = dates.filter((d) => {
    const kept = read.get(keyOf(env, d));
    if (isKept(kept)) found.set(d, kept);
    return !isKept(kept);
  });
  if (missing.length === 0) return found;
  const entries = [];
  for (const span of planSpans(missing)) {
    let days: MonexSession[];
    try {
      days = fetchData<MonexSession[]>(env, '/monex/range', { from: span.from, to: span.to });
    } catch (error) {
      const wanted = missing.filter((d) => d >= span.from && d <= span.to).map((d) => keyOf(env, d));
      const recalled = recall(env, wanted, error);
      for (const key of wanted) {
        const kept = recalled.get(key);
        if (!isKept(kept)) throw error;
      }
      for (const d of missing) {
        const kept = recalled.get(keyOf(env, d));
        if (isKept(kept)) found.set(d, kept);
      }
      servedFromCopy(env, wanted, error as ApiError);
      continue;
    }
    const byDate = new Map(days.map((d) => [d.date, d]));
    for (const date of missing.filter((d) => d >= span.from && d <= span.to)) {
      const day = byDate.get(date);
      found.set(date, day ? keep(day) : null);
      if (day) entries.push({ key: keyOf(env, date), value: keep(day), ttl: date < env.today ? CACHE_TTL.final : CACHE_TTL.moving });
    }
  }
  remember(env, entries);
  return found;
}

export function exchangeMonex(env: Env, date: unknown, measure: unknown): Cell | Cell[][] {
  const how = readMonexMeasure(measure, env);

  if (!Array.isArray(date)) {
    const cell = readDateCell(date, env.format);
    if (cell.kind === 'invalid') throw new ArgumentError(env.t.dateInvalid(cell.text));
    if (cell.kind === 'blank') {
      requireKey(env);
      return figureOf(keep(fetchData<MonexSession>(env, '/monex/latest', {})), how, env);
    }
    const kept = daysFor(env, [cell.date]).get(cell.date);
    if (!kept) return env.t.cellMonexUnknown;
    return figureOf(kept, how, env);
  }

  // A range: one request for all its days, the answer in its shape, a short text in a bad cell.
  const cells = toCells(date);
  const checked = mapCells(cells.rows, (v) => readDateCell(v, env.format));
  const days = daysFor(
    env,
    distinct(checked, (c) => ((c as DateCell).kind === 'date' ? (c as { date: string }).date : null)),
  );
  return answer(
    cells,
    checked.map((row) =>
      row.map((c): Cell => {
        if (c.kind === 'blank') return '';
        if (c.kind === 'invalid') return env.t.cellBadDate;
        const kept = days.get(c.date);
        return kept ? figureOf(kept, how, env) : env.t.cellMonexUnknown;
      }),
    ),
  );
}
