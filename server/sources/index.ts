/** Which upstream plays which part, decided once from configuration. */
import { createSiteSource } from './bccr-site';
import { createSddeSource } from './bccr-sdde';
import { createHaciendaSource } from './hacienda';
import type { RequestPolicy } from './http';
import type { OfficialSources } from './types';

export { createSiteSource } from './bccr-site';
export { createSddeSource } from './bccr-sdde';
export { chunkRange } from './chunks';
export { createHaciendaSource } from './hacienda';
export { checkRate, SANITY_BOUNDS } from './sanity';
export { UpstreamError, type OfficialSource, type OfficialSources, type SourceName, type SourceRate } from './types';
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
