/**
 * The first sheet of the template spreadsheet (`npm run addon:template`): how to use the add-on,
 * in Spanish (column A) and English (column B), then live examples (the formula as text beside
 * the formula itself). Formulas take one argument at most: with more, the separator (`,` or `;`)
 * would depend on the spreadsheet's locale.
 */
export const TEMPLATE_TITLE = 'CRC Rates · tipo de cambio BCCR';
export const HOW_TO_SHEET = 'Cómo usar · How to use';

/** Rows of [Spanish, English]. */
export const HOW_TO = [
  ['Tipo de cambio oficial del BCCR en Google Sheets', 'The official BCCR exchange rate in Google Sheets'],
  ['1. Pida una llave de la API en {site}', '1. Ask for an API key at {site}'],
  ['2. Extensiones → CRC Rates → Configuración: pegue la llave y guarde.', '2. Extensions → CRC Rates → Settings: paste the key and save.'],
  [
    '3. La primera vez, Google le pide autorizar el script: solo esta hoja, su menú y la API de crc-rates.',
    '3. The first time, Google asks you to authorise the script: this spreadsheet only, its menu and the crc-rates API.',
  ],
  [
    'Esta copia no se actualiza sola: para una versión más nueva, haga otra copia de la plantilla.',
    'This copy does not update itself: for a newer version, make another copy of the template.',
  ],
  ['Privacidad: {site}/es/privacy', 'Privacy: {site}/en/privacy'],
];

/** Examples: [formula, what it gives in Spanish, in English]. */
export const EXAMPLES = [
  ['=EXCHANGERATE()', 'Venta de hoy', "Today's sell rate"],
  ['=EXCHANGEHISTORY(7)', 'Los últimos 7 días', 'The last 7 days'],
];

/** The sheet's rows as text and formulas, with `{site}` filled in. */
export function howToRows(site) {
  const fill = (text) => text.replaceAll('{site}', site);
  return [
    ...HOW_TO.map(([es, en]) => [{ text: fill(es) }, { text: fill(en) }]),
    [{ text: '' }, { text: '' }],
    ...EXAMPLES.map(([formula, es, en]) => [{ text: `${es} · ${en}` }, { text: formula }, { formula }]),
  ];
}
