/**
 * The demo's sources: the very ones the configuration builds (pointed at the simulated central
 * bank), with the rows they give stored as `DEMO` instead of `BCCR` or `Hacienda`, and the
 * provenance log's words saying "Simulated". Simulated values then never pass for the central
 * bank's, in any answer or audit, while the sync itself runs unchanged.
 */
import type { MonexSource } from '../sources/bccr-monex';
import type { CrossSource, OfficialSource, OfficialSources } from '../sources/types';

export function asDemoSource(source: OfficialSource): OfficialSource {
  return {
    name: source.name,
    provider: 'DEMO',
    upstream: { buy: `Simulated ${source.upstream.buy}`, sell: `Simulated ${source.upstream.sell}` },
    maxChunkDays: source.maxChunkDays,
    fetchRange: (from, to, signal) => source.fetchRange(from, to, signal),
  };
}

export function asDemoSources(sources: OfficialSources): OfficialSources {
  return { primary: asDemoSource(sources.primary), fallback: asDemoSource(sources.fallback) };
}

/** The cross rates of the other currencies, stored as `DEMO` like the dollar's. */
export function asDemoCrossSource(source: CrossSource): CrossSource {
  return { ...source, provider: 'DEMO', read: (code, from, to, signal) => source.read(code, from, to, signal) };
}

/** MONEX, stored as `DEMO` like the dollar's. */
export function asDemoMonexSource(source: MonexSource): MonexSource {
  return { ...source, provider: 'DEMO', fetchRange: (from, to, signal) => source.fetchRange(from, to, signal) };
}
