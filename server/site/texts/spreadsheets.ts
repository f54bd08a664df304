/**
 * The texts of the pages for spreadsheet users, in Spanish and English, as data: /{lang}/sheets
 * (how to get the Google Sheets add-on, by whichever path the operator offers) and /{lang}/excel
 * (Power Query in Excel and Power BI). `{name}` marks a link the page fills in.
 */
import type { Lang } from '../../../shared/languages';
import type { PowerQueryTable } from '../power-query';

export const SHEETS_TEXTS = {
  es: {
    title: 'Google Sheets · crc-rates',
    heading: 'El tipo de cambio oficial en Google Sheets',
    intro:
      'El complemento CRC Rates agrega funciones a sus hojas de cálculo: escriba =EXCHANGERATE() en una celda y obtenga el tipo de cambio oficial del BCCR.',
    functionsHeading: 'Funciones',
    functions: [
      ['=EXCHANGERATE()', 'el tipo de cambio de hoy; =EXCHANGERATE(A2:A366) una columna de fechas en una sola consulta'],
      ['=EXCHANGECONVERT(100; "USD"; "CRC")', 'una conversión'],
      ['=EXCHANGEHISTORY(30)', 'los últimos 30 días'],
      ['=EXCHANGECLOSE("2025-01")', 'el cierre de un mes, para la contabilidad'],
      ['=EXCHANGEBEST("sell")', 'la entidad que vende dólares más barato'],
      ['=EXCHANGEANALYTICS(365)', 'promedio, extremos y tendencia'],
    ],
    installHeading: 'Cómo obtenerlo',
    listing: 'Instálelo desde Google Workspace Marketplace: queda disponible en todas sus hojas y se actualiza solo.',
    listingButton: 'Instalar desde Google Workspace Marketplace',
    template: 'Haga una copia de la hoja de ejemplo: trae el complemento ya incluido y una hoja que explica cómo usarlo.',
    templateButton: 'Hacer una copia',
    templateNote:
      'Una copia queda como estaba el día en que la hizo: no recibe las actualizaciones del complemento. Para tener una versión más nueva, haga otra copia.',
    developer:
      'Este servidor aún no publica el complemento. Puede instalarlo usted mismo desde su código fuente, como complemento de prueba en su propia cuenta de Google:',
    developerSteps: [
      'Con Node.js 20 o más reciente, en una copia del repositorio de crc-rates: npm ci y luego npx clasp login.',
      '{push}: crea su propio proyecto de Apps Script y sube el complemento.',
      'npx clasp -P appsscript open-script, y en el editor: Implementar → Implementaciones de prueba → Complemento del editor → Crear prueba nueva, con su hoja.',
    ],
    // Apps Script fetches only public https addresses, from Google's servers.
    notHttps: 'Este servidor no tiene una dirección https pública: el complemento usará el servicio público.',
    settingsHeading: 'Su llave',
    settings: 'En la hoja: Extensiones → CRC Rates → Configuración, pegue su llave y guarde. ¿No tiene una? Pídala en {form}.',
    privacy: 'Qué guarda y qué envía el complemento: {privacy}.',
    form: 'el formulario de solicitud de acceso',
    privacyLink: 'aviso de privacidad',
  },
  en: {
    title: 'Google Sheets · crc-rates',
    heading: 'The official exchange rate in Google Sheets',
    intro: "The CRC Rates add-on adds functions to your spreadsheets: type =EXCHANGERATE() in a cell and get the BCCR's official rate.",
    functionsHeading: 'Functions',
    functions: [
      ['=EXCHANGERATE()', "today's rate; =EXCHANGERATE(A2:A366) a column of dates in one request"],
      ['=EXCHANGECONVERT(100, "USD", "CRC")', 'a conversion'],
      ['=EXCHANGEHISTORY(30)', 'the last 30 days'],
      ['=EXCHANGECLOSE("2025-01")', "a month's close, for the books"],
      ['=EXCHANGEBEST("sell")', 'who sells dollars cheapest'],
      ['=EXCHANGEANALYTICS(365)', 'average, extremes and trend'],
    ],
    installHeading: 'How to get it',
    listing: 'Install it from the Google Workspace Marketplace: it is then available in all your spreadsheets and updates itself.',
    listingButton: 'Install from the Google Workspace Marketplace',
    template: 'Make a copy of the example spreadsheet: it comes with the add-on inside and a sheet that explains how to use it.',
    templateButton: 'Make a copy',
    templateNote: 'A copy stays as it was the day you made it: it does not receive updates of the add-on. For a newer version, make another copy.',
    developer: 'This server does not publish the add-on yet. You can install it yourself from its source code, as a test add-on in your own Google account:',
    developerSteps: [
      'With Node.js 20 or newer, in a copy of the crc-rates repository: npm ci, then npx clasp login.',
      '{push}: creates your own Apps Script project and uploads the add-on.',
      'npx clasp -P appsscript open-script, then in the editor: Deploy → Test deployments → Editor Add-on → Create new test, with your spreadsheet.',
    ],
    // Apps Script fetches only public https addresses, from Google's servers.
    notHttps: 'This server has no public https address: the add-on will use the public service.',
    settingsHeading: 'Your key',
    settings: "In the spreadsheet: Extensions → CRC Rates → Settings, paste your key and save. Don't have one? Ask for it with {form}.",
    privacy: 'What the add-on keeps and sends: {privacy}.',
    form: 'the request-access form',
    privacyLink: 'privacy notice',
  },
} as const satisfies Record<Lang, unknown>;

export const EXCEL_TEXTS = {
  es: {
    title: 'Excel y Power BI · crc-rates',
    heading: 'El tipo de cambio oficial en Excel y Power BI',
    intro:
      'Power Query, incluido en Excel y en Power BI, lee las respuestas CSV de la API y las actualiza con un clic. Estas consultas están listas para pegar.',
    stepsHeading: 'Cómo usarlas',
    steps: [
      'En Excel: Datos → Obtener datos → Desde otras fuentes → Consulta en blanco. En Power BI: Inicio → Transformar datos.',
      'Inicio → Administrar parámetros → Nuevo parámetro: nombre {parameter}, tipo Texto, valor actual su llave.',
      'Inicio → Editor avanzado: reemplace el texto por una de las consultas de abajo y pulse Listo.',
      'Si Power Query pregunta cómo conectarse a la dirección de la API, elija Anónimo: la llave viaja en el encabezado X-API-Key, no en la dirección.',
      'Cierre y cargue. Datos → Actualizar todo trae los datos nuevos.',
    ],
    keyHeading: 'Su llave',
    key: 'La llave va en el parámetro {parameter} y se envía en el encabezado X-API-Key, nunca en la dirección: así no queda escrita en las consultas ni en sus registros. El valor del parámetro sí se guarda en el libro: antes de compartirlo, bórrelo (Administrar parámetros) y que cada persona ponga el suyo.',
    formatHeading: 'Fechas y números',
    format:
      'Las fechas llegan en formato ISO (AAAA-MM-DD) y los números con punto decimal; cada consulta indica su cultura (en-US), así que funciona igual en un Excel en español. Si prefiere punto y coma y coma decimal, agregue locale=es a la consulta, como en {esFile}.',
    esFile: 'esta versión del archivo',
    edit: 'Cambie las fechas, el mes, los días o la moneda (Currency = "EUR") en las primeras líneas de cada consulta.',
    queriesHeading: 'Las consultas',
    tables: {
      history: 'Historial: los últimos días',
      range: 'Un rango de fechas',
      close: 'El cierre de un mes',
      latest: 'El tipo de cambio más reciente',
    } satisfies Record<PowerQueryTable, string>,
    fileHeading: 'Todo en un archivo',
    file: '{file} tiene las cuatro consultas en una: Power Query muestra cada tabla para abrirla, y solo consulta las que abre.',
    fileLink: 'crc-rates.pq',
    noKey: '¿No tiene llave? Pídala en {form}.',
    form: 'el formulario de solicitud de acceso',
    copyWhat: 'la consulta',
  },
  en: {
    title: 'Excel and Power BI · crc-rates',
    heading: 'The official exchange rate in Excel and Power BI',
    intro: "Power Query, built into Excel and Power BI, reads the API's CSV answers and refreshes them in one click. These queries are ready to paste.",
    stepsHeading: 'How to use them',
    steps: [
      'In Excel: Data → Get Data → From Other Sources → Blank Query. In Power BI: Home → Transform data.',
      'Home → Manage Parameters → New Parameter: name {parameter}, type Text, current value your key.',
      'Home → Advanced Editor: replace the text with one of the queries below and press Done.',
      "If Power Query asks how to connect to the API's address, choose Anonymous: the key travels in the X-API-Key header, not in the address.",
      'Close & Load. Data → Refresh All brings new data.',
    ],
    keyHeading: 'Your key',
    key: "The key goes in the parameter {parameter} and is sent in the X-API-Key header, never in the address: so it is not written into the queries nor into their logs. The parameter's value is saved in the workbook, though: before sharing it, clear it (Manage Parameters) and let each person set their own.",
    formatHeading: 'Dates and numbers',
    format:
      'Dates come as ISO (YYYY-MM-DD) and numbers with a decimal point; each query states its culture (en-US), so it works the same in Excel in any language. If you prefer semicolons and a decimal comma, add locale=es to the query, as in {esFile}.',
    esFile: 'this version of the file',
    edit: 'Change the dates, the month, the days or the currency (Currency = "EUR") in the first lines of each query.',
    queriesHeading: 'The queries',
    tables: {
      history: 'History: the last days',
      range: 'A range of dates',
      close: "A month's close",
      latest: 'The latest rate',
    } satisfies Record<PowerQueryTable, string>,
    fileHeading: 'All in one file',
    file: '{file} holds the four queries in one: Power Query shows each table to open, and fetches only the ones you open.',
    fileLink: 'crc-rates.pq',
    noKey: "Don't have a key? Ask for one with {form}.",
    form: 'the request-access form',
    copyWhat: 'the query',
  },
} as const satisfies Record<Lang, unknown>;

/** The footer's links to these pages, on every page of the site. */
export const PAGE_LINKS = {
  es: { sheets: 'Google Sheets', excel: 'Excel y Power BI', privacy: 'Privacidad', terms: 'Términos de uso' },
  en: { sheets: 'Google Sheets', excel: 'Excel and Power BI', privacy: 'Privacy', terms: 'Terms of use' },
} as const satisfies Record<Lang, unknown>;
