/** Shared first step of every parser: turn a body into JSON or say precisely why it is not. */
import { isIsoDate } from '../../shared/dates';
import { parseError } from './types';

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function describe(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}

/**
 * Upstream gateways answer outages with a 200 HTML page, and a dropped connection can leave a
 * cut-off document: both must surface as a parse error naming what arrived.
 */
export function parseJsonBody(body: string, source: string): unknown {
  const trimmed = body.trim();
  if (trimmed === '') throw parseError(source, 'empty body where JSON was expected');
  if (trimmed.startsWith('<')) throw parseError(source, `got an HTML/XML page instead of JSON: ${describe(trimmed.slice(0, 60))}`);
  try {
    return JSON.parse(trimmed) as unknown;
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    throw parseError(source, `body is not valid JSON (truncated?): ${reason}`);
  }
}

/** Values arrive as JSON numbers or numeric strings (`496.44000000`); anything else is no number. */
export function toNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(value)) return Number(value);
  return undefined;
}

/** `2026-09-14`, `2026-09-14T00:00:00` or `2019-10-24T00:00:00-06:00`: the calendar day as written. */
export function leadingDate(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const m = /^(\d{4}-\d{2}-\d{2})(?:[T ][\d:.]+(?:Z|[+-]\d{2}:?\d{2})?)?$/.exec(value.trim());
  return m?.[1] !== undefined && isIsoDate(m[1]) ? m[1] : undefined;
}
