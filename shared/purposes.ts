/**
 * Which official rate Costa Rican rules name for what: the side of the central bank's reference
 * rate, and the day whose rate applies. `purpose=` on the rate routes, the converter and the month
 * close answers with the side a rule names and cites the rule (docs/api.md, "Rates for a purpose").
 *
 * This table is data, not code: a rule is corrected here, and the answers, `/purposes`, the
 * documents and the add-on follow. Each rule is cited for information; `note` says so in every
 * answer that cites one.
 */
import type { RateSide } from './currencies';

/** The values `purpose` takes, in the order `/purposes` lists them. */
export const PURPOSE_IDS = ['invoice', 'income-tax', 'consumer-pay-colones', 'consumer-pay-dollars', 'customs'] as const;
export type PurposeId = (typeof PURPOSE_IDS)[number];

/**
 * The day a month close applies a purpose's rule to: the month's last calendar day, or December 31
 * of the month's year, the fiscal close (where a rule settles exchange differences at year end).
 */
export const PURPOSE_CLOSE_DAYS = ['month-end', 'fiscal-year-end'] as const;
export type PurposeCloseDay = (typeof PURPOSE_CLOSE_DAYS)[number];

export interface PurposeText {
  es: string;
  en: string;
}

export interface Purpose {
  id: PurposeId;
  /** Spanish names of the purpose, for people who write them in Spanish (the Sheets add-on). */
  aliases: readonly string[];
  /** The side of the central bank's reference rate the rule names. */
  side: RateSide;
  /** Whose date the rate is taken on, in words: the day a caller asks for. */
  day: PurposeText;
  /** The day a month close applies the rule to. */
  close: PurposeCloseDay;
  /** The rule, in a sentence. */
  rule: PurposeText;
  /** The legal text the rule comes from, as it is cited. */
  basis: string;
  /** That the rule is cited for information and is not legal advice. */
  note: PurposeText;
}

const NOT_ADVICE: PurposeText = {
  es: 'La regla se cita a título informativo y no constituye asesoría legal ni tributaria: confírmela con la norma vigente o con su contador.',
  en: 'The rule is cited for information only and is not legal or tax advice: check it against the rule in force or with your accountant.',
};

const CONSUMER_BASIS = 'Ley Orgánica del Banco Central de Costa Rica (Ley 7558), art. 48; Reglamento a la Ley 7472 (Decreto 37899-MEIC), art. 36';

export const PURPOSES: readonly Purpose[] = [
  {
    id: 'invoice',
    aliases: ['factura', 'iva'],
    side: 'sell',
    day: { es: 'la fecha de emisión de la factura', en: 'the date the invoice is issued' },
    close: 'month-end',
    rule: {
      es: 'IVA: una factura en moneda extranjera se expresa en colones al tipo de cambio de referencia de venta del BCCR vigente en la fecha de emisión de la factura.',
      en: 'VAT (IVA): an invoice in a foreign currency is stated in colones at the BCCR reference sell rate in force on the date the invoice is issued.',
    },
    basis: 'Ley del Impuesto sobre el Valor Agregado (Ley 9635, título I)',
    note: NOT_ADVICE,
  },
  {
    id: 'income-tax',
    aliases: ['renta'],
    side: 'sell',
    day: {
      es: 'la fecha de la operación; al cierre, el 31 de diciembre del período fiscal',
      en: 'the date of the operation; at the close, December 31 of the fiscal year',
    },
    close: 'fiscal-year-end',
    rule: {
      es: 'Renta: las operaciones en moneda extranjera se valoran al tipo de cambio de referencia de venta del BCCR de la fecha de la operación, y las diferencias cambiarias se liquidan al cierre fiscal, al tipo de cambio del 31 de diciembre.',
      en: 'Income tax: operations in a foreign currency are valued at the BCCR reference sell rate of the date of the operation, and exchange differences are settled at the fiscal close, at the rate of December 31.',
    },
    basis: 'Ley del Impuesto sobre la Renta (Ley 7092, reformada por la Ley 9635)',
    note: NOT_ADVICE,
  },
  {
    id: 'consumer-pay-colones',
    aliases: ['consumidor-colones'],
    side: 'sell',
    day: { es: 'la fecha del pago', en: 'the date of the payment' },
    close: 'month-end',
    rule: {
      es: 'Quien paga en colones un precio fijado en dólares lo paga al tipo de cambio de referencia de venta del BCCR.',
      en: 'Paying in colones a price set in dollars: the price is converted at the BCCR reference sell rate.',
    },
    basis: CONSUMER_BASIS,
    note: NOT_ADVICE,
  },
  {
    id: 'consumer-pay-dollars',
    aliases: ['consumidor-dolares'],
    side: 'buy',
    day: { es: 'la fecha del pago', en: 'the date of the payment' },
    close: 'month-end',
    rule: {
      es: 'Quien paga en dólares un precio fijado en colones lo paga al tipo de cambio de referencia de compra del BCCR.',
      en: 'Paying in dollars a price set in colones: the price is converted at the BCCR reference buy rate.',
    },
    basis: CONSUMER_BASIS,
    note: NOT_ADVICE,
  },
  {
    id: 'customs',
    aliases: ['aduana'],
    side: 'sell',
    day: { es: 'la fecha de aceptación de la declaración aduanera', en: 'the date the customs declaration is accepted' },
    close: 'month-end',
    rule: {
      es: 'Aduanas: el valor en aduana se convierte a colones al tipo de cambio de referencia de venta del BCCR vigente en la fecha de aceptación de la declaración.',
      en: 'Customs: the customs value is converted to colones at the BCCR reference sell rate in force on the date the declaration is accepted.',
    },
    basis: 'Ley General de Aduanas (Ley 7557), art. 257',
    note: NOT_ADVICE,
  },
];

/** The entry of a purpose. */
export function purposeOf(id: PurposeId): Purpose {
  const found = PURPOSES.find((p) => p.id === id);
  // PURPOSE_IDS and PURPOSES are one table written twice: a missing entry is a defect of this file.
  if (!found) throw new Error(`No entry for the purpose "${id}" in shared/purposes.ts`);
  return found;
}
