/**
 * Every text the add-on shows, in English and Spanish. The spreadsheet's locale picks the
 * language (`es`, `es_CR`, `es_419` … → Spanish; anything else → English). Whole-call errors say
 * what to do next; cell messages are short, because they sit in a cell next to the data.
 */

import { ARGUMENT_RULES } from '../../shared/arguments';
import { CURRENCY_CODES, DOLLAR } from '../../shared/currency-catalog';

export type Locale = 'es' | 'en';

const rules = ARGUMENT_RULES;

/** Every code a rate can be asked in, as a refusal lists them: a wrong code is answered with the right ones. */
const CODES = CURRENCY_CODES.join(', ');
/** How many currencies there are besides the dollar. */
const OTHERS = CURRENCY_CODES.length - 1;
/** "EUR " before "rate" in a message about another currency than the dollar, nothing for the dollar (as before there were others). */
const codeBefore = (currency: string): string => (currency === DOLLAR.code ? '' : `${currency} `);
/** " del EUR" after "tipo de cambio", likewise. */
const delCode = (currency: string): string => (currency === DOLLAR.code ? '' : ` del ${currency}`);

export function localeOf(spreadsheetLocale: string | null | undefined): Locale {
  return /^es(?:[_-]|$)/i.test(String(spreadsheetLocale ?? '').trim()) ? 'es' : 'en';
}

const en = {
  // Where the settings live, as the Sheets menu names it.
  settingsPath: 'Extensions → CRC Rates → Settings',
  menuSettings: 'Settings',
  menuFreeze: 'Freeze selected values',

  // Whole-call errors (thrown: the cell shows #ERROR! and this text).
  noKey: () => `Set your API key: ${en.settingsPath}`,
  keyRejected: () => `Your API key was rejected: check it in ${en.settingsPath}`,
  keyRevoked: () => `Your API key has been revoked: paste a new one in ${en.settingsPath}`,
  quotaExceeded: (resetsOn: string) => `Monthly quota used up: resets on ${resetsOn}`,
  rateLimited: (seconds: number) => `Too many requests: try again in ${seconds} s`,
  badRequest: (detail: string) => `The API refused the request: ${detail}`,
  notFound: (detail: string) => `No data: ${detail}`,
  unavailable: (status: number) => `The CRC Rates API is unavailable (HTTP ${status}): try again later`,
  unreachable: (origin: string, detail: string) => `Could not reach the CRC Rates API at ${origin}: ${detail}`,
  unexpectedAnswer: (origin: string, status: number) => `Unexpected answer from ${origin} (HTTP ${status}): check the API address in ${en.settingsPath}`,
  badSide: (got: string) => `type must be "buy", "sell" or a purpose such as "invoice" or "income-tax" (got "${got}")`,
  badOperation: (got: string) => `operation must be "buy" or "sell" (got "${got}")`,
  badCurrency: (name: string, got: string) => `${name} must be "CRC" or a supported currency code: ${CODES} (got "${got}")`,
  badRateCurrency: (got: string) => `currency must be a supported currency code (USD when empty): ${CODES} (got "${got}")`,
  colonSideNeeded: (from: string, to: string) =>
    `from or to must be "CRC": every rate is in colones (got "${from}" and "${to}"); convert in two steps, through CRC`,
  missingAmount: () => 'amount is required: a number or a range of numbers',
  badDays: (min: number, max: number, got: string) => `days must be a whole number from ${min} to ${max} (got "${got}")`,
  oneCell: (name: string) => `${name} must be a single value, not a range`,
  dateNoRate: (date: string, currency: string) => `No ${codeBefore(currency)}rate for ${date}`,
  noBuyYet: (date: string, currency: string) =>
    `No ${currency} buy rate for ${date} yet: until the central bank publishes its cross rate there is only Hacienda's provisional sell (use "sell", or an earlier date)`,
  dateInvalid: (got: string) => `date must be a date cell or YYYY-MM-DD text (got "${got}")`,
  // The API's rules, in the API's words (shared/arguments.ts).
  badAmount: (got: string) => `amount must be ${rules.en.amount} (got "${got}")`,
  badMonth: (got: string) => `month must be a date cell or ${rules.en.month} (got "${got}")`,
  monthAfterCurrent: (current: string, got: string) => `month ${rules.en.notAfterCurrentMonth(current)} (got "${got}")`,
  badMeasure: (got: string) => `measure must be "closing" or "average" (got "${got}")`,
  badMonexMeasure: (got: string) => `measure must be "average", "min", "max", "volume" or "session" (got "${got}")`,
  monthNoRate: (month: string, currency: string) => `No ${codeBefore(currency)}rate in ${month}`,
  noClosing: (month: string, lastDay: string) => `#N/A: ${month} has no closing rate: the month is not complete (${lastDay} has no rate)`,

  // Short texts written into one cell of a range.
  cellBadDate: 'Not a date',
  cellNoRate: 'No rate',
  cellBadAmount: 'Not a number',
  cellAmountOutOfRange: 'Out of range',
  cellBadMonth: 'Not a month',
  cellFutureMonth: 'Future month',
  cellNoClosing: '#N/A',
  cellNoSession: '#N/A',
  cellMonexUnknown: 'Not known yet',

  // Table headers.
  historyHeader: ['Date', 'Buy', 'Sell'],
  bestHeader: ['Rank', 'Institution', 'Type', 'Buy', 'Sell', 'vs official'],
  analyticsHeader: ['Metric', 'Value'],
  institutionTypes: {
    public_bank: 'Public bank',
    private_bank: 'Private bank',
    financial: 'Financial company',
    cooperative: 'Cooperative',
    mutual: 'Mutual',
    exchange_house: 'Exchange house',
    brokerage: 'Brokerage',
  } as Record<string, string>,
  analytics: {
    from: 'From',
    to: 'To',
    count: 'Days with a rate',
    buy: 'Buy',
    sell: 'Sell',
    average: 'average',
    min: 'minimum',
    minDate: 'minimum on',
    max: 'maximum',
    maxDate: 'maximum on',
    first: 'first',
    last: 'last',
    change: 'change',
    changePercent: 'change %',
    volatility: 'volatility %',
    trend: 'trend',
    slopePerDay: 'slope per day',
  },
  trends: { up: 'up', down: 'down', stable: 'stable' } as Record<string, string>,

  // Settings (sidebar and its server functions).
  sidebar: {
    title: 'CRC Rates',
    intro: `Exchange rates of the Banco Central de Costa Rica in your sheet: the official USD/CRC rate, and ${OTHERS} other currencies in colones.`,
    keyLabel: 'API key',
    keyPlaceholder: 'crc_live_…',
    keySaved: (masked: string) => `Key saved: ${masked}`,
    noKeySaved: 'No key saved yet: paste yours below.',
    advanced: 'Advanced',
    baseUrlLabel: 'API address',
    baseUrlHint: 'Leave it empty for the public service. Self-hosted: https://your-server/api/v1',
    test: 'Test connection',
    save: 'Save',
    remove: 'Remove key',
    working: 'Working…',
    saved: 'Settings saved.',
    removed: 'Key removed.',
    connected: 'Connected.',
    plan: 'Plan',
    perMinute: 'Requests per minute',
    networkError: 'Lost contact with Google Sheets: check your connection and try again.',
    quotaTitle: 'Requests this month',
    quotaUsed: (used: string, quota: string) => `${used} of ${quota} used`,
    quotaLeft: (remaining: string) => `${remaining} left`,
    quotaResets: (resetsOn: string) => `Resets on ${resetsOn}`,
    quotaLoading: 'Reading this month’s usage…',
    quotaUnavailable: (reason: string) => `This month’s usage could not be read: ${reason}`,
    staleTitle: 'Some values are a saved copy',
    staleBody: (count: number, savedOn: string, reason: string) =>
      `${count === 1 ? '1 answer was' : `${count} answers were`} shown from the last good copy (from ${savedOn}) because the API failed: ${reason}. They update when the sheet recalculates and the API answers again.`,
    usage:
      'Functions: =EXCHANGERATE(), =EXCHANGERATE(A2, "sell", "EUR"), =EXCHANGECONVERT(100, "EUR", "CRC"), =EXCHANGECLOSE("2025-01", "sell", "closing", "EUR"), =EXCHANGEHISTORY(30), =EXCHANGEBEST("sell"), =EXCHANGEANALYTICS(30), =EXCHANGEMONEX(A2, "average"). Extensions → CRC Rates → Freeze selected values turns the selected formulas into fixed values.',
    currenciesTitle: 'Currencies',
    currenciesHint:
      'The codes the currency argument takes, and from or to of EXCHANGECONVERT (the other side being CRC). Rates are colones per unit. All but the US dollar are derived from the central bank’s cross rate against the dollar, published on business days: a weekend or a holiday abroad takes the last rate before it.',
  },
  badKeyFormat: 'That does not look like a CRC Rates key: it starts with crc_live_ and has no spaces.',
  badBaseUrl: (got: string) => `The API address must start with https:// (or http://) and name a server (got "${got}")`,
  keyNeededForNewAddress: 'Paste the key again to use it with a new API address.',

  // Freeze selected values (a toast after the menu action).
  freezeTitle: 'Freeze selected values',
  freezeDone: (formulas: number, where: string) =>
    `${formulas === 1 ? '1 formula' : `${formulas} formulas`} in ${where} replaced by ${formulas === 1 ? 'its value' : 'their values'}. To bring them back: Edit → Undo (Ctrl+Z, ⌘Z on a Mac).`,
  freezeNothing: 'The selection has no formulas: nothing to freeze.',
};

export type Messages = typeof en;

const es: Messages = {
  settingsPath: 'Extensiones → CRC Rates → Configuración',
  menuSettings: 'Configuración',
  menuFreeze: 'Congelar valores seleccionados',

  noKey: () => `Configure su clave de API: ${es.settingsPath}`,
  keyRejected: () => `La API rechazó su clave: revísela en ${es.settingsPath}`,
  keyRevoked: () => `Su clave de API fue revocada: pegue una nueva en ${es.settingsPath}`,
  quotaExceeded: (resetsOn: string) => `Cuota mensual agotada: se renueva el ${resetsOn}`,
  rateLimited: (seconds: number) => `Demasiadas solicitudes: intente de nuevo en ${seconds} s`,
  badRequest: (detail: string) => `La API rechazó la solicitud: ${detail}`,
  notFound: (detail: string) => `Sin datos: ${detail}`,
  unavailable: (status: number) => `La API de CRC Rates no está disponible (HTTP ${status}): intente más tarde`,
  unreachable: (origin: string, detail: string) => `No se pudo conectar con la API de CRC Rates en ${origin}: ${detail}`,
  unexpectedAnswer: (origin: string, status: number) =>
    `Respuesta inesperada de ${origin} (HTTP ${status}): revise la dirección de la API en ${es.settingsPath}`,
  badSide: (got: string) => `tipo debe ser "compra", "venta" o un propósito como "factura" o "renta" (se recibió "${got}")`,
  badOperation: (got: string) => `operación debe ser "compra" o "venta" (se recibió "${got}")`,
  badCurrency: (name: string, got: string) => `${name} debe ser "CRC" o un código de moneda admitido: ${CODES} (se recibió "${got}")`,
  badRateCurrency: (got: string) => `moneda debe ser un código de moneda admitido (USD si se deja vacía): ${CODES} (se recibió "${got}")`,
  colonSideNeeded: (from: string, to: string) =>
    `from o to debe ser "CRC": todos los tipos de cambio están en colones (se recibió "${from}" y "${to}"); convierta en dos pasos, pasando por CRC`,
  missingAmount: () => 'falta el monto: un número o un rango de números',
  badDays: (min: number, max: number, got: string) => `días debe ser un número entero de ${min} a ${max} (se recibió "${got}")`,
  oneCell: (name: string) => `${name} debe ser un solo valor, no un rango`,
  dateNoRate: (date: string, currency: string) => `No hay tipo de cambio${delCode(currency)} para ${date}`,
  noBuyYet: (date: string, currency: string) =>
    `Aún no hay tipo de compra del ${currency} para ${date}: hasta que el Banco Central publique su tipo cruzado solo existe la venta provisional de Hacienda (use "venta" o una fecha anterior)`,
  dateInvalid: (got: string) => `la fecha debe ser una celda de fecha o texto AAAA-MM-DD (se recibió "${got}")`,
  badAmount: (got: string) => `monto debe ser ${rules.es.amount} (se recibió "${got}")`,
  badMonth: (got: string) => `mes debe ser una celda de fecha o ${rules.es.month} (se recibió "${got}")`,
  monthAfterCurrent: (current: string, got: string) => `mes ${rules.es.notAfterCurrentMonth(current)} (se recibió "${got}")`,
  badMeasure: (got: string) => `medida debe ser "cierre" o "promedio" (se recibió "${got}")`,
  badMonexMeasure: (got: string) => `medida debe ser "promedio", "minimo", "maximo", "volumen" o "sesion" (se recibió "${got}")`,
  monthNoRate: (month: string, currency: string) => `No hay tipo de cambio${delCode(currency)} en ${month}`,
  noClosing: (month: string, lastDay: string) =>
    `#N/A: ${month} no tiene tipo de cambio de cierre: el mes no está completo (${lastDay} no tiene tipo de cambio)`,

  cellBadDate: 'Fecha inválida',
  cellNoRate: 'Sin tipo de cambio',
  cellBadAmount: 'No es un número',
  cellAmountOutOfRange: 'Fuera de rango',
  cellBadMonth: 'Mes inválido',
  cellFutureMonth: 'Mes futuro',
  cellNoClosing: '#N/A',
  cellNoSession: '#N/A',
  cellMonexUnknown: 'Aún sin datos',

  historyHeader: ['Fecha', 'Compra', 'Venta'],
  bestHeader: ['Posición', 'Entidad', 'Tipo', 'Compra', 'Venta', 'vs. oficial'],
  analyticsHeader: ['Indicador', 'Valor'],
  institutionTypes: {
    public_bank: 'Banco público',
    private_bank: 'Banco privado',
    financial: 'Financiera',
    cooperative: 'Cooperativa',
    mutual: 'Mutual',
    exchange_house: 'Casa de cambio',
    brokerage: 'Puesto de bolsa',
  },
  analytics: {
    from: 'Desde',
    to: 'Hasta',
    count: 'Días con tipo de cambio',
    buy: 'Compra',
    sell: 'Venta',
    average: 'promedio',
    min: 'mínimo',
    minDate: 'fecha del mínimo',
    max: 'máximo',
    maxDate: 'fecha del máximo',
    first: 'primero',
    last: 'último',
    change: 'variación',
    changePercent: 'variación %',
    volatility: 'volatilidad %',
    trend: 'tendencia',
    slopePerDay: 'pendiente por día',
  },
  trends: { up: 'al alza', down: 'a la baja', stable: 'estable' },

  sidebar: {
    title: 'CRC Rates',
    intro: `Los tipos de cambio del Banco Central de Costa Rica en su hoja: el oficial USD/CRC y ${OTHERS} monedas más en colones.`,
    keyLabel: 'Clave de API',
    keyPlaceholder: 'crc_live_…',
    keySaved: (masked: string) => `Clave guardada: ${masked}`,
    noKeySaved: 'Aún no hay clave: pegue la suya abajo.',
    advanced: 'Avanzado',
    baseUrlLabel: 'Dirección de la API',
    baseUrlHint: 'Déjela vacía para el servicio público. Servidor propio: https://su-servidor/api/v1',
    test: 'Probar conexión',
    save: 'Guardar',
    remove: 'Eliminar clave',
    working: 'Procesando…',
    saved: 'Configuración guardada.',
    removed: 'Clave eliminada.',
    connected: 'Conectado.',
    plan: 'Plan',
    perMinute: 'Solicitudes por minuto',
    networkError: 'Se perdió el contacto con Google Sheets: revise su conexión e intente de nuevo.',
    quotaTitle: 'Solicitudes este mes',
    quotaUsed: (used: string, quota: string) => `${used} de ${quota} usadas`,
    quotaLeft: (remaining: string) => `quedan ${remaining}`,
    quotaResets: (resetsOn: string) => `Se renueva el ${resetsOn}`,
    quotaLoading: 'Leyendo el uso de este mes…',
    quotaUnavailable: (reason: string) => `No se pudo leer el uso de este mes: ${reason}`,
    staleTitle: 'Algunos valores son una copia guardada',
    staleBody: (count: number, savedOn: string, reason: string) =>
      `${count === 1 ? '1 respuesta se mostró' : `${count} respuestas se mostraron`} desde la última copia buena (del ${savedOn}) porque la API falló: ${reason}. Se actualizan cuando la hoja se recalcula y la API vuelve a responder.`,
    usage:
      'Funciones: =EXCHANGERATE(), =EXCHANGERATE(A2; "venta"; "EUR"), =EXCHANGECONVERT(100; "EUR"; "CRC"), =EXCHANGECLOSE("2025-01"; "venta"; "cierre"; "EUR"), =EXCHANGEHISTORY(30), =EXCHANGEBEST("venta"), =EXCHANGEANALYTICS(30), =EXCHANGEMONEX(A2; "promedio"). Extensiones → CRC Rates → Congelar valores seleccionados convierte las fórmulas seleccionadas en valores fijos.',
    currenciesTitle: 'Monedas',
    currenciesHint:
      'Los códigos que acepta el argumento currency, y from o to de EXCHANGECONVERT (con CRC del otro lado). Los tipos de cambio son colones por unidad. Todas salvo el dólar estadounidense se derivan del tipo de cambio cruzado del Banco Central contra el dólar, publicado en días hábiles: un fin de semana o un feriado en el extranjero toma el último tipo de cambio anterior.',
  },
  badKeyFormat: 'Eso no parece una clave de CRC Rates: empieza con crc_live_ y no lleva espacios.',
  badBaseUrl: (got: string) => `La dirección de la API debe empezar con https:// (o http://) y nombrar un servidor (se recibió "${got}")`,
  keyNeededForNewAddress: 'Pegue la clave de nuevo para usarla con una dirección de API nueva.',

  freezeTitle: 'Congelar valores seleccionados',
  freezeDone: (formulas: number, where: string) =>
    `${formulas === 1 ? '1 fórmula' : `${formulas} fórmulas`} en ${where} ${formulas === 1 ? 'se reemplazó por su valor' : 'se reemplazaron por sus valores'}. Para recuperarlas: Editar → Deshacer (Ctrl+Z, ⌘Z en Mac).`,
  freezeNothing: 'La selección no tiene fórmulas: no hay nada que congelar.',
};

const CATALOG: Record<Locale, Messages> = { en, es };

export function messages(locale: Locale): Messages {
  return CATALOG[locale];
}

/** "2026-12-01T00:00:00.000Z" → "2026-12-01 00:00 UTC" (when the quota resets, when a copy was saved). */
export function formatUtc(iso: string): string {
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})/.exec(iso);
  return m ? `${m[1]} ${m[2]} UTC` : iso;
}
