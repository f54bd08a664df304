/**
 * The currencies the add-on takes, named in the sheet's language, as the sidebar lists them: the
 * shared catalog's codes in its order (the dollar first, then by code), so the list is never
 * another than the one the arguments are checked against.
 */
import { CURRENCY_CODES, DOLLAR, derivedCurrency } from '../../shared/currency-catalog';
import type { Locale } from './messages';

export interface NamedCurrency {
  code: string;
  name: string;
}

export function currencyList(locale: Locale): NamedCurrency[] {
  // Only the dollar is not a derived currency: every other code of CURRENCY_CODES comes from DERIVED_CURRENCIES.
  return CURRENCY_CODES.map((code) => ({ code, name: (derivedCurrency(code)?.name ?? DOLLAR.name)[locale] }));
}
