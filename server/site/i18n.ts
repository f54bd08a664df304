/**
 * The site's two languages and every text it shows, as data: templates look words up here and
 * never hold Spanish or English themselves.
 */
import type { Context } from 'koa';
import { type Lang, LANGS } from '../../shared/languages';

export { type Lang, LANGS };
/** Costa Rica speaks Spanish: the language when the browser states no preference we have. */
export const DEFAULT_LANG: Lang = 'es';

export const isLang = (value: unknown): value is Lang => (LANGS as readonly unknown[]).includes(value);

/** The browser's preferred language among ours (Accept-Language), Spanish by default. */
export function preferredLang(ctx: Context): Lang {
  const picked = ctx.acceptsLanguages(...LANGS);
  return isLang(picked) ? picked : DEFAULT_LANG;
}

/** A count as people of the language write it: 5,000 in English, 5000 in Spanish. */
export function count(value: number, lang: Lang): string {
  return new Intl.NumberFormat(lang === 'es' ? 'es-CR' : 'en-US').format(value);
}

/** A price in US dollars: 2,99 USD / 2.99 USD. */
export function usd(value: number, lang: Lang): string {
  const amount = new Intl.NumberFormat(lang === 'es' ? 'es-CR' : 'en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(value);
  return `${amount} USD`;
}

export const TEXTS = {
  es: {
    widget: {
      title: 'Tipo de cambio oficial',
      pair: 'USD/CRC',
      buy: 'Compra',
      sell: 'Venta',
      datePrefix: 'Vigente el',
      source: 'Fuente:',
      link: 'crc-rates',
      newTab: '(se abre en una pestaña nueva)',
      empty: 'Aún no hay datos del tipo de cambio. Vuelva pronto.',
      frameTitle: 'Tipo de cambio oficial USD/CRC del BCCR',
      demo: 'datos de demostración',
      demoShort: 'demo',
      // A currency other than the dollar: never "oficial", the BCCR publishes only its cross rate.
      derived: 'Derivado del tipo cruzado del BCCR',
      derivedShort: 'derivado',
      derivedFrameTitle: 'tipo de cambio derivado del tipo cruzado del BCCR',
      refusedTitle: 'Widget mal configurado',
      currencyUnknown: 'El parámetro currency debe ser un código de moneda admitido, como USD, EUR o JPY. Recibió:',
      currencyRepeated: 'El parámetro currency debe indicarse una sola vez.',
    },
    site: {
      title: 'crc-rates · Tipo de cambio oficial del dólar en Costa Rica (BCCR)',
      description: 'El tipo de cambio oficial USD/CRC del Banco Central de Costa Rica: API REST, widgets para su sitio y complemento de Google Sheets.',
      skip: 'Saltar al contenido',
      nav: { rate: 'Hoy', widgets: 'Widgets', pricing: 'Precios', api: 'API', request: 'Solicitar acceso' },
      otherLang: 'English',
      heading: 'El tipo de cambio oficial del dólar, directo del Banco Central de Costa Rica',
      intro:
        'crc-rates publica el tipo de cambio de referencia USD/CRC del BCCR, de compra y de venta, para cada día del año: como una API REST rápida, como widgets gratuitos para su sitio web y en Google Sheets.',
      today: 'Tipo de cambio oficial',
      noData: 'Aún no hay datos del tipo de cambio. Vuelva pronto.',
      widgetsHeading: 'Widgets para su sitio',
      widgetsIntro: 'Gratis y sin llave. Copie el código en su página: el widget muestra el tipo de cambio oficial y se actualiza solo.',
      widgetsOptions:
        'Opciones en la dirección: currency=EUR u otro código de moneda (USD por omisión; las demás se derivan del tipo cruzado del BCCR), theme=auto, light o dark (auto sigue el tema del sistema) y refresh=segundos entre actualizaciones (60 por omisión).',
      card: 'Tarjeta',
      banner: 'Banner',
      snippetLabel: 'Código para insertar',
      pricingHeading: 'Precios de la API',
      perMonth: 'al mes',
      requestsPerMonth: 'consultas al mes',
      requestsPerMinute: 'consultas por minuto',
      customPrice: 'A convenir',
      customLimits: 'Sus propios límites de consultas al mes y por minuto',
      customNote: 'Precio según sus límites, a solicitud',
      ask: 'Solicitar',
      apiHeading: 'API',
      apiIntro: 'Cada consulta lleva su llave en el encabezado x-api-key. Las respuestas son JSON con ETag y encabezados de límite y cuota.',
      docs: 'Referencia de la API',
      openapi: 'Documento OpenAPI 3.1',
      apiExample: 'Ejemplo',
      demo: 'datos de demostración',
      copy: {
        label: 'Copiar',
        done: 'Copiado',
        manual: 'Seleccionado: pulse Ctrl+C (⌘C en Mac) para copiarlo.',
        what: { card: 'el código de la tarjeta', banner: 'el código del banner', api: 'el ejemplo' },
      },
      yourKey: 'SU_LLAVE',
      formHeading: 'Solicitar acceso',
      formIntro: 'Déjenos sus datos y le escribiremos con su llave.',
      fields: {
        name: { label: 'Nombre', error: 'Escriba su nombre (de 1 a 120 caracteres).' },
        email: { label: 'Correo electrónico', error: 'Escriba un correo electrónico válido.' },
        company: { label: 'Empresa (opcional)', error: 'Use como máximo 120 caracteres.' },
        plan: { label: 'Plan', error: 'Elija un plan.' },
        message: { label: 'Mensaje (opcional)', error: 'Use como máximo 2000 caracteres.' },
      },
      submit: 'Enviar solicitud',
      sending: 'Enviando…',
      thanks: '¡Gracias! Recibimos su solicitud y le escribiremos pronto con su llave.',
      tooMany: 'Demasiadas solicitudes desde su conexión. Intente de nuevo más tarde.',
      failed: 'No pudimos enviar su solicitud. Intente de nuevo.',
      errorTitle: 'No pudimos recibir su solicitud',
      thanksTitle: 'Solicitud recibida',
      thanksTo: 'Gracias',
      home: 'Volver al sitio',
      back: 'Volver al formulario',
      footer: 'Datos del Banco Central de Costa Rica (BCCR). crc-rates no está afiliado al BCCR.',
    },
    provenance: {
      heading: 'Procedencia del tipo de cambio oficial del',
      intro: 'De dónde viene el tipo de cambio USD/CRC de este día, cuándo se observó y si cambió, para un expediente de auditoría.',
      record: 'Registro',
      date: 'Fecha',
      pair: 'Par',
      buy: 'Compra',
      sell: 'Venta',
      source: 'Fuente',
      fetchedAt: 'Obtenido',
      origin: 'Origen',
      upstreamBuy: 'Compra leída de',
      upstreamSell: 'Venta leída de',
      firstSeenAt: 'Visto por primera vez',
      lastConfirmedAt: 'Confirmado por última vez',
      observations: 'Lecturas en total',
      revisions: 'Revisiones',
      noRevisions: 'Nunca revisado: los valores del registro son los primeros que se observaron para este día.',
      revisionsCaption: 'Valores anteriores de este día, del más antiguo al más reciente',
      observedAt: 'Observado',
      replacedAt: 'Reemplazado',
      digest: 'Huella digital',
      digestText: 'Texto resumido',
      digestHow: 'Es el SHA-256 del texto en UTF-8: cualquiera puede recalcularlo a partir del registro, por ejemplo así:',
      times: 'Horas de Costa Rica (UTC−6).',
    },
  },
  en: {
    widget: {
      title: 'Official exchange rate',
      pair: 'USD/CRC',
      buy: 'Buy',
      sell: 'Sell',
      datePrefix: 'Rate for',
      source: 'Source:',
      link: 'crc-rates',
      newTab: '(opens in a new tab)',
      empty: 'No exchange rate data yet. Check back soon.',
      frameTitle: 'Official USD/CRC exchange rate of the BCCR',
      demo: 'demo data',
      demoShort: 'demo',
      // A currency other than the dollar: never "official", the BCCR publishes only its cross rate.
      derived: 'Derived from the BCCR cross rate',
      derivedShort: 'derived',
      derivedFrameTitle: 'exchange rate derived from the BCCR cross rate',
      refusedTitle: 'Widget misconfigured',
      currencyUnknown: 'The currency parameter must be a supported currency code, such as USD, EUR or JPY. It got:',
      currencyRepeated: 'The currency parameter must be given only once.',
    },
    site: {
      title: 'crc-rates · The official US dollar exchange rate of Costa Rica (BCCR)',
      description: "The official USD/CRC exchange rate of Costa Rica's central bank: a REST API, widgets for your site and a Google Sheets add-on.",
      skip: 'Skip to content',
      nav: { rate: 'Today', widgets: 'Widgets', pricing: 'Pricing', api: 'API', request: 'Request access' },
      otherLang: 'Español',
      heading: 'The official US dollar exchange rate, straight from the Central Bank of Costa Rica',
      intro:
        "crc-rates publishes the BCCR's USD/CRC reference rate, buy and sell, for every day of the year: as a fast REST API, as free widgets for your website and in Google Sheets.",
      today: 'Official exchange rate',
      noData: 'No exchange rate data yet. Check back soon.',
      widgetsHeading: 'Widgets for your site',
      widgetsIntro: 'Free, no key needed. Paste the code into your page: the widget shows the official rate and keeps itself up to date.',
      widgetsOptions:
        'Options in the address: currency=EUR or another currency code (USD by default; the others are derived from the BCCR cross rate), theme=auto, light or dark (auto follows the system theme) and refresh=seconds between updates (60 by default).',
      card: 'Card',
      banner: 'Banner',
      snippetLabel: 'Embed code',
      pricingHeading: 'API pricing',
      perMonth: 'per month',
      requestsPerMonth: 'requests per month',
      requestsPerMinute: 'requests per minute',
      customPrice: 'On request',
      customLimits: 'Your own monthly and per-minute limits',
      customNote: 'Priced to your limits, on request',
      ask: 'Request',
      apiHeading: 'API',
      apiIntro: 'Every request carries your key in the x-api-key header. Answers are JSON with an ETag and rate-limit and quota headers.',
      docs: 'API reference',
      openapi: 'OpenAPI 3.1 document',
      apiExample: 'Example',
      demo: 'demo data',
      copy: {
        label: 'Copy',
        done: 'Copied',
        manual: 'Selected: press Ctrl+C (⌘C on a Mac) to copy it.',
        what: { card: 'the card code', banner: 'the banner code', api: 'the example' },
      },
      yourKey: 'YOUR_KEY',
      formHeading: 'Request access',
      formIntro: 'Leave us your details and we will write to you with your key.',
      fields: {
        name: { label: 'Name', error: 'Enter your name (1 to 120 characters).' },
        email: { label: 'Email', error: 'Enter a valid email address.' },
        company: { label: 'Company (optional)', error: 'Use at most 120 characters.' },
        plan: { label: 'Plan', error: 'Choose a plan.' },
        message: { label: 'Message (optional)', error: 'Use at most 2000 characters.' },
      },
      submit: 'Send request',
      sending: 'Sending…',
      thanks: 'Thank you! We received your request and will write to you soon with your key.',
      tooMany: 'Too many requests from your connection. Please try again later.',
      failed: 'We could not send your request. Please try again.',
      errorTitle: 'We could not take your request',
      thanksTitle: 'Request received',
      thanksTo: 'Thank you',
      home: 'Back to the site',
      back: 'Back to the form',
      footer: 'Data from the Central Bank of Costa Rica (BCCR). crc-rates is not affiliated with the BCCR.',
    },
    provenance: {
      heading: 'Provenance of the official exchange rate of',
      intro: "Where this day's USD/CRC exchange rate comes from, when it was observed and whether it changed, for an audit file.",
      record: 'Record',
      date: 'Date',
      pair: 'Pair',
      buy: 'Buy',
      sell: 'Sell',
      source: 'Source',
      fetchedAt: 'Fetched',
      origin: 'Origin',
      upstreamBuy: 'Buy read from',
      upstreamSell: 'Sell read from',
      firstSeenAt: 'First seen',
      lastConfirmedAt: 'Last confirmed',
      observations: 'Readings in all',
      revisions: 'Revisions',
      noRevisions: 'Never revised: the values of the record are the first ones observed for this day.',
      revisionsCaption: 'Earlier values of this day, oldest first',
      observedAt: 'Observed',
      replacedAt: 'Replaced',
      digest: 'Digest',
      digestText: 'Digested text',
      digestHow: 'It is the SHA-256 of the UTF-8 text: anyone can recompute it from the record, for example:',
      times: 'Times in Costa Rica (UTC−6).',
    },
  },
} as const;

export type FormField = keyof (typeof TEXTS)['es']['site']['fields'];
