/*
 * How the site writes money and dates, in Spanish and English. One file serves both sides: the
 * server requires it to render the widgets, and the widgets' script loads it (as the global
 * CrcFormat) to redraw them after a refresh, so both always read the same. Hand-written rather
 * than Intl, whose output differs between ICU versions (browsers and Node disagree on spaces).
 */
(function (root, factory) {
  if (typeof module === 'object' && module.exports) module.exports = factory();
  else root.CrcFormat = factory();
})(typeof self !== 'undefined' ? self : this, function () {
  'use strict';

  var MONTHS = {
    es: ['enero', 'febrero', 'marzo', 'abril', 'mayo', 'junio', 'julio', 'agosto', 'septiembre', 'octubre', 'noviembre', 'diciembre'],
    en: ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'],
  };

  /**
   * The decimals a rate is written with: two from 10 colones up, as rates are rounded there; below
   * that, the digits the value carries (at least two), since a derived rate keeps 6 significant
   * digits there (a yen is ₡3.40123, a dong ₡0.0199123) and two decimals would round it to nothing.
   */
  function decimalsOf(value) {
    if (value >= 10) return 2;
    var text = String(value);
    var exponent = /e-(\d+)$/.exec(text);
    var digits = exponent ? Number(exponent[1]) + (text.split('e')[0].split('.')[1] || '').length : (text.split('.')[1] || '').length;
    return Math.min(20, Math.max(2, digits));
  }

  /** ₡468,29 in Spanish, ₡468.29 in English; ₡3,40123 / ₡3.40123 below 10 colones. */
  function money(value, lang) {
    var magnitude = Math.abs(value);
    var parts = magnitude.toFixed(decimalsOf(magnitude)).split('.');
    // Spanish groups thousands with a (non-breaking) space, English with a comma.
    var whole = parts[0].replace(/\B(?=(\d{3})+(?!\d))/g, lang === 'es' ? '\u00a0' : ',');
    return (value < 0 ? '-' : '') + '\u20a1' + whole + (lang === 'es' ? ',' : '.') + parts[1];
  }

  /**
   * Whether an amount is written too long for a widget's full-size figures: under one colón (a
   * dong, a rupiah) it carries up to 7 decimals, ₡0,0234145, and the widget sets its figures smaller.
   */
  function compact(value) {
    return Math.abs(value) < 1;
  }

  /** 2025-01-15 → "15 de enero de 2025" / "January 15, 2025" (a calendar day, no time zone). */
  function date(iso, lang) {
    var m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
    if (!m) return iso;
    var day = Number(m[3]);
    var month = MONTHS[lang === 'es' ? 'es' : 'en'][Number(m[2]) - 1];
    return lang === 'es' ? day + ' de ' + month + ' de ' + m[1] : month + ' ' + day + ', ' + m[1];
  }

  return { money: money, compact: compact, date: date };
});
