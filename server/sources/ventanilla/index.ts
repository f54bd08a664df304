/** Which window (ventanilla) source to use, decided once from configuration like the official one. */
import type { RequestPolicy } from '../http';
import { createVentanillaSddeSource } from './sdde';
import { createVentanillaSiteSource } from './site';
import type { VentanillaSource } from './types';

export { CATALOG, inferType, matchInstitution, slugify, typeFromGroupHeading, type CatalogEntry } from './catalog';
export { createVentanillaSddeSource, parseCuadro1015 } from './sdde';
export { createVentanillaSiteSource, parseCuadroPersonalizado } from './site';
export type { VentanillaDay, VentanillaQuote, VentanillaSource } from './types';

export interface VentanillaSourceConfig extends RequestPolicy {
  bccrToken?: string | undefined;
  bccrApiUrl: string;
  bccrSiteApiUrl: string;
}

/** The token API when a token is set (one request a year), the public site API otherwise (one a day). */
export function createVentanillaSource(config: VentanillaSourceConfig): VentanillaSource {
  const { bccrToken, bccrApiUrl, bccrSiteApiUrl, ...policy } = config;
  const token = bccrToken?.trim();
  return token ? createVentanillaSddeSource({ ...policy, baseUrl: bccrApiUrl, token }) : createVentanillaSiteSource({ ...policy, baseUrl: bccrSiteApiUrl });
}
