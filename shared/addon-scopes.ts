/**
 * The OAuth scopes the Google Sheets add-on asks for, and why, in both languages: the manifest
 * (appsscript/appsscript.json), the Marketplace listing texts (appsscript/listing/) and the pages
 * that document the add-on must name exactly these (a test compares them). Fewer is better:
 * Google's review asks for each one's reason, and these are the narrowest that do the job.
 */
export interface AddonScope {
  readonly scope: string;
  readonly es: string;
  readonly en: string;
}

export const ADDON_SCOPES: readonly AddonScope[] = [
  {
    scope: 'https://www.googleapis.com/auth/spreadsheets.currentonly',
    es: 'Ver y editar solo la hoja de cálculo donde se usa: leer los argumentos de sus funciones y, al congelar, cambiar las fórmulas seleccionadas por sus valores.',
    en: 'See and edit only the spreadsheet it is used in: read its functions’ arguments and, when freezing, replace the selected formulas with their values.',
  },
  {
    scope: 'https://www.googleapis.com/auth/script.container.ui',
    es: 'Mostrar su menú y la barra lateral de configuración dentro de la hoja.',
    en: 'Show its menu and the settings sidebar inside the spreadsheet.',
  },
  {
    scope: 'https://www.googleapis.com/auth/script.external_request',
    es: 'Consultar la API de crc-rates (el único servicio externo al que se conecta).',
    en: 'Call the crc-rates API (the only outside service it connects to).',
  },
];
