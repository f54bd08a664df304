/**
 * The privacy notice and the terms of use, in Spanish and English, as data. They describe what this
 * code does (what it stores, what the add-on keeps and sends), so a change in what is stored is a
 * change here too. `{name}` marks a link or value the page fills in (contact, request form, BCCR).
 */
import type { Lang } from '../../../shared/languages';

export interface Section {
  readonly heading: string;
  readonly paragraphs: readonly string[];
  readonly items?: readonly string[];
  /** The add-on's OAuth scopes, each with what it is for, follow the paragraphs. */
  readonly scopes?: true;
}

export interface LegalText {
  readonly title: string;
  readonly heading: string;
  readonly updated: string;
  readonly intro: string;
  readonly sections: readonly Section[];
}

/** The date the texts below last changed in substance. */
export const LEGAL_UPDATED = '2026-11-27';

export const PRIVACY: Record<Lang, LegalText> = {
  es: {
    title: 'Privacidad · crc-rates',
    heading: 'Aviso de privacidad',
    updated: 'Última actualización:',
    intro:
      'Este aviso describe qué datos guarda el servicio crc-rates de {site}, para qué, y qué hace su complemento de Google Sheets. Quien opera este servicio responde por ellos: {contact}.',
    sections: [
      {
        heading: 'Qué guardamos y para qué',
        paragraphs: ['El servicio guarda solo lo necesario para dar acceso a la API, aplicar sus límites y responder solicitudes:'],
        items: [
          'Llaves de la API: solo su huella SHA-256 y sus primeros caracteres (para distinguirlas), con el nombre y el plan con que se crearon, sus límites y las fechas de creación y revocación. La llave completa se muestra una sola vez y nunca se guarda.',
          'Solicitudes de acceso del formulario del sitio: nombre, correo electrónico, empresa (si la indica), plan, mensaje (si lo escribe) y la hora de recepción, para responderle y enviarle su llave.',
          'Conteos de uso: cuántas consultas hizo cada llave en cada mes, para aplicar la cuota mensual y mostrarle su consumo.',
          'Registros técnicos: por cada consulta, el método, la ruta (sin los parámetros de la dirección), el código de respuesta, la duración y un identificador. Las llaves nunca se escriben en los registros. Se conservan el tiempo que los guarde el alojamiento del servicio.',
          'Límites de uso: la dirección IP o la llave de cada cliente se cuenta durante un minuto (diez para el formulario), en memoria o en el Redis del servicio, y luego se descarta.',
        ],
      },
      {
        heading: 'Qué no guardamos',
        paragraphs: [
          'No guardamos el contenido de sus hojas de cálculo ni de sus libros de Excel. El sitio no usa cookies, publicidad ni herramientas de analítica, y no carga archivos de otros sitios.',
        ],
      },
      {
        heading: 'El complemento de Google Sheets',
        paragraphs: [
          'El complemento guarda su llave (y la dirección del servidor, si la cambia) en las propiedades del documento de la hoja donde la configura: cualquier persona que pueda editar esa hoja puede usarla. También guarda allí la última respuesta obtenida de cada consulta, para mostrarla si la API no responde por un momento, y guarda respuestas en la caché de Apps Script hasta por seis horas.',
          'A la API envía solo lo que sus funciones necesitan: las fechas, meses, montos, códigos de moneda y opciones que usted escribe como argumentos, junto con su llave. No envía ninguna otra celda, y no lee otros archivos, ni su correo ni su cuenta de Google.',
          'Pide estos permisos de Google, y para esto:',
        ],
        scopes: true,
      },
      {
        heading: 'Datos de Google',
        paragraphs: [
          'El uso que el complemento hace de la información recibida de las API de Google se ajusta a la Política de Datos de Usuario de los Servicios de las API de Google, incluidos sus requisitos de Uso Limitado: solo se usa para calcular lo que sus funciones devuelven en su hoja.',
        ],
      },
      {
        heading: 'Con quién compartimos',
        paragraphs: [
          'No vendemos ni alquilamos sus datos, ni los usamos para publicidad. Solo los tratan los proveedores de alojamiento que ejecutan el servicio, y se entregarían a una autoridad únicamente si la ley lo exige.',
        ],
      },
      {
        heading: 'Sus opciones',
        paragraphs: [
          'Puede pedir que revoquemos su llave o que borremos su solicitud de acceso y sus datos de contacto escribiendo a {contact}. Para que el complemento olvide su llave, bórrela en Extensiones → CRC Rates → Configuración o desinstálelo.',
        ],
      },
    ],
  },
  en: {
    title: 'Privacy · crc-rates',
    heading: 'Privacy notice',
    updated: 'Last updated:',
    intro:
      'This notice describes what data the crc-rates service at {site} keeps, why, and what its Google Sheets add-on does. Whoever operates this service is responsible for it: {contact}.',
    sections: [
      {
        heading: 'What we keep and why',
        paragraphs: ['The service keeps only what it needs to give access to the API, apply its limits and answer requests:'],
        items: [
          'API keys: only their SHA-256 hash and first characters (to tell them apart), with the name and plan they were created with, their limits and the dates they were created and revoked. The full key is shown once and never stored.',
          "Access requests from the site's form: name, email, company (if given), plan, message (if written) and when it arrived, to answer you and send you a key.",
          'Usage counts: how many requests each key made each month, to apply the monthly quota and show you your usage.',
          "Technical logs: for each request, the method, the path (without the address's parameters), the status, the duration and an identifier. Keys are never written to logs. They are kept as long as the service's hosting keeps them.",
          "Rate limits: each client's IP address or key is counted for one minute (ten for the form), in memory or in the service's Redis, and then dropped.",
        ],
      },
      {
        heading: 'What we do not keep',
        paragraphs: [
          'We do not keep the content of your spreadsheets or Excel workbooks. The site uses no cookies, no advertising and no analytics, and loads no files from other sites.',
        ],
      },
      {
        heading: 'The Google Sheets add-on',
        paragraphs: [
          "The add-on keeps your key (and the server address, if you change it) in the document properties of the spreadsheet you set it up in: anyone who can edit that spreadsheet can use it. It also keeps there the last answer it got for each request, to show it when the API does not answer for a moment, and it keeps answers in Apps Script's cache for up to six hours.",
          'It sends the API only what its functions need: the dates, months, amounts, currency codes and options you write as their arguments, with your key. It sends no other cell, and it does not read other files, your email or your Google account.',
          'It asks for these Google permissions, for this:',
        ],
        scopes: true,
      },
      {
        heading: 'Data from Google',
        paragraphs: [
          "The add-on's use of information received from Google APIs adheres to the Google API Services User Data Policy, including the Limited Use requirements: it is used only to compute what its functions return in your spreadsheet.",
        ],
      },
      {
        heading: 'Who we share with',
        paragraphs: [
          'We do not sell or rent your data, nor use it for advertising. Only the hosting providers that run the service process it, and it would be given to an authority only where the law requires it.',
        ],
      },
      {
        heading: 'Your choices',
        paragraphs: [
          'You can ask us to revoke your key or to delete your access request and contact details by writing to {contact}. To make the add-on forget your key, clear it in Extensions → CRC Rates → Settings, or uninstall it.',
        ],
      },
    ],
  },
};

export const TERMS: Record<Lang, LegalText> = {
  es: {
    title: 'Términos de uso · crc-rates',
    heading: 'Términos de uso',
    updated: 'Última actualización:',
    intro: 'Estos términos rigen el uso de la API, los widgets, el sitio y el complemento de Google Sheets de crc-rates en {site}. Consultas: {contact}.',
    sections: [
      {
        heading: 'De dónde vienen los datos',
        paragraphs: [
          'Los tipos de cambio de referencia del dólar (compra y venta) son los que publica el Banco Central de Costa Rica (BCCR). Cuando el BCCR aún no ha publicado el del día, el de hoy puede venir del Ministerio de Hacienda; cada registro indica su fuente. crc-rates no está afiliado al BCCR ni a Hacienda.',
          'Los tipos de las demás monedas los deriva este servicio (el tipo del dólar multiplicado por el tipo cruzado del BCCR del mismo día): no son oficiales. También son cálculos del servicio las estadísticas, los cierres de mes, los gráficos, las conversiones y los textos de análisis. Las reglas que indican qué tipo usar para cada fin se citan a título informativo y no son asesoría legal ni tributaria.',
          'El uso de los datos del BCCR está sujeto a sus propios {bccrTerms}.',
        ],
      },
      {
        heading: 'Su llave y los límites',
        paragraphs: [
          'Su llave es personal: no la publique ni la comparta fuera de su organización. Cada plan tiene un límite de consultas por minuto y una cuota mensual; al superarlos, la API responde 429 hasta que se renueven. Podemos revocar una llave usada para abusar del servicio o que se haya hecho pública.',
        ],
      },
      {
        heading: 'Sin garantía',
        paragraphs: [
          'Hacemos lo posible por que los datos sean exactos y el servicio esté disponible, pero se ofrecen tal cual, sin garantía. Verifique las cifras con la fuente oficial antes de decisiones importantes. No respondemos por daños derivados del uso de los datos ni de una interrupción del servicio.',
        ],
      },
      {
        heading: 'Widgets y complemento',
        paragraphs: [
          'Los widgets son gratuitos y pueden insertarse en cualquier sitio sin modificar su contenido. El complemento de Google Sheets usa su llave y cuenta contra su cuota como cualquier otra consulta; su tratamiento de datos se describe en el {privacy}.',
        ],
      },
      {
        heading: 'Cambios',
        paragraphs: [
          'Podemos cambiar estos términos; la fecha de arriba indica la versión vigente. Si sigue usando el servicio después de un cambio, acepta los términos nuevos.',
        ],
      },
    ],
  },
  en: {
    title: 'Terms of use · crc-rates',
    heading: 'Terms of use',
    updated: 'Last updated:',
    intro: "These terms govern the use of crc-rates' API, widgets, site and Google Sheets add-on at {site}. Questions: {contact}.",
    sections: [
      {
        heading: 'Where the data comes from',
        paragraphs: [
          "The dollar's reference rates (buy and sell) are the ones the Central Bank of Costa Rica (Banco Central de Costa Rica, BCCR) publishes. When the BCCR has not yet published today's, today's rate may come from the Ministry of Finance (Ministerio de Hacienda); every record names its source. crc-rates is not affiliated with the BCCR nor with Hacienda.",
          "The other currencies' rates are derived by this service (the dollar's rate times the BCCR's cross rate of the same day): they are not official. The statistics, month closes, charts, conversions and analysis texts are the service's computations too. The rules that say which rate to use for a purpose are cited for information and are not legal or tax advice.",
          "The use of the BCCR's data is subject to its own {bccrTerms}.",
        ],
      },
      {
        heading: 'Your key and the limits',
        paragraphs: [
          'Your key is personal: do not publish it or share it outside your organisation. Every plan has a per-minute limit and a monthly quota; past them the API answers 429 until they renew. We may revoke a key used to abuse the service or that has been made public.',
        ],
      },
      {
        heading: 'No warranty',
        paragraphs: [
          'We do our best to keep the data accurate and the service available, but they are provided as is, without warranty. Check the figures against the official source before important decisions. We are not liable for damages arising from the use of the data or from an interruption of the service.',
        ],
      },
      {
        heading: 'Widgets and add-on',
        paragraphs: [
          'The widgets are free and may be embedded on any site without changing their content. The Google Sheets add-on uses your key and counts against your quota like any other request; how it handles data is described in the {privacy}.',
        ],
      },
      {
        heading: 'Changes',
        paragraphs: ['We may change these terms; the date above names the version in force. Using the service after a change means accepting the new terms.'],
      },
    ],
  },
};

/** The words the pages put in place of `{name}`. */
export const LEGAL_LINKS: Record<Lang, { form: string; bccrTerms: string; privacy: string }> = {
  es: { form: 'el formulario de solicitud de acceso', bccrTerms: 'términos de uso', privacy: 'aviso de privacidad' },
  en: { form: 'the request-access form', bccrTerms: 'terms of use', privacy: 'privacy notice' },
};

/** The central bank's own terms of use of the information it publishes. */
export const BCCR_TERMS_URL = 'https://www.bccr.fi.cr/bccr_home_page/terms_use.html';
