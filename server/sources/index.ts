/** Which upstream plays which part, decided once from configuration. */
import { createSiteSource } from './bccr-site';
import { createSddeSource, SDDE_MAX_CHUNK_DAYS, sddeSeriesReader } from './bccr-sdde';
import { createHaciendaSource } from './hacienda';
import type { RequestPolicy } from './http';
import { createMonexSource, type MonexSource } from './bccr-monex';
import type { CrossSource, OfficialSources } from './types';

export { createSiteSource } from './bccr-site';
export { createSddeSource } from './bccr-sdde';
export { createMonexSource, type MonexPoint, type MonexSource } from './bccr-monex';
export { chunkRange } from './chunks';
export { createHaciendaSource } from './hacienda';
export { checkRate, SANITY_BOUNDS } from './sanity';
export { UpstreamError, type CrossSource, type OfficialSource, type OfficialSources, type SourceName, type SourceRate } from './types';
export { createVentanillaSource, type VentanillaDay, type VentanillaQuote, type VentanillaSource } from './ventanilla';

export interface OfficialSourcesConfig extends RequestPolicy {
  bccrToken?: string | undefined;
  bccrApiUrl: string;
  bccrSiteApiUrl: string;
  haciendaUrl: string;
}

/**
 * The token API is the primary when a token is configured; without one the public site API takes
 * its place so that a fresh install still gets the whole history. Hacienda only knows today.
 */
export function createOfficialSources(config: OfficialSourcesConfig): OfficialSources {
  const { bccrToken, bccrApiUrl, bccrSiteApiUrl, haciendaUrl, ...policy } = config;
  const token = bccrToken?.trim();
  const primary = token ? createSddeSource({ ...policy, baseUrl: bccrApiUrl, token }) : createSiteSource({ ...policy, baseUrl: bccrSiteApiUrl });
  return { primary, fallback: createHaciendaSource({ ...policy, baseUrl: haciendaUrl }) };
}

/** The other currencies' cross rates: only the token API has them, so none without a token. */
export function createCrossSource(config: Omit<OfficialSourcesConfig, 'bccrSiteApiUrl' | 'haciendaUrl'>): CrossSource | null {
  const { bccrToken, bccrApiUrl, ...policy } = config;
  const token = bccrToken?.trim();
  if (!token) return null;
  return { name: 'bccr-sdde', provider: 'BCCR', maxChunkDays: SDDE_MAX_CHUNK_DAYS, read: sddeSeriesReader({ ...policy, baseUrl: bccrApiUrl, token }) };
}

/** MONEX (cuadro 219): only the token API has it, so none without a token. */
export function createMonexSourceFrom(config: Omit<OfficialSourcesConfig, 'bccrSiteApiUrl' | 'haciendaUrl'>): MonexSource | null {
  const { bccrToken, bccrApiUrl, ...policy } = config;
  const token = bccrToken?.trim();
  if (!token) return null;
  return createMonexSource({ ...policy, baseUrl: bccrApiUrl, token });
}
