/**
 * Everything Apps Script must see as a top-level function. The build bundles this module as
 * `var CrcRates = (() => { … })()` and appends one stub per export
 * (`function EXCHANGERATE(date, type) { return CrcRates.EXCHANGERATE(date, type); }`), with the
 * JSDoc of the source, because Apps Script only sees top-level function declarations.
 */
export { EXCHANGERATE, EXCHANGECONVERT, EXCHANGECLOSE, EXCHANGEHISTORY, EXCHANGEBEST, EXCHANGEANALYTICS, EXCHANGEMONEX } from './functions';
export { onOpen, onInstall, showSettings, freezeSelection } from './menu';
export { getSettings, saveSettings, testConnection, getUsage, removeKey } from './rpc';
