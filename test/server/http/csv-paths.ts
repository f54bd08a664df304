/**
 * The routes with a CSV form, as the contract names them (every route that answers records,
 * periods, a conversion, institutions, currencies or purposes): written here, apart from the
 * code, so that the tests state the contract rather than read the code's own list.
 */
export const CSV_PATHS = [
  '/exchange-rate/latest',
  '/exchange-rate',
  '/exchange-rate/history',
  '/exchange-rate/range',
  '/exchange-rate/stats',
  '/exchange-rate/close',
  '/convert',
  '/banking/rates',
  '/banking/best',
  '/currencies',
  '/purposes',
  '/monex/latest',
  '/monex',
  '/monex/history',
  '/monex/range',
  '/monex/revisions',
  '/calendar',
];
