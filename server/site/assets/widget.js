/*
 * Keeps a widget up to date without reloading it: every `data-refresh` seconds it asks the site's
 * /widget-data.json (revalidating with the ETag, so an unchanged rate costs a 304) and redraws
 * the fields that changed. Redrawing only on change keeps the aria-live region quiet otherwise.
 * Needs format.js (CrcFormat) loaded first; without JavaScript the server-rendered rate stays.
 */
(function () {
  'use strict';
  var root = document.querySelector('[data-widget]');
  var format = window.CrcFormat;
  if (!root || !format || !window.fetch) return;

  var lang = root.getAttribute('data-lang') === 'en' ? 'en' : 'es';
  var seconds = Math.max(1, Number(root.getAttribute('data-refresh')) || 60);
  var url = root.getAttribute('data-src') || '/widget-data.json';
  var currency = root.getAttribute('data-currency') || 'USD';

  function field(name) {
    return root.querySelector('[data-field="' + name + '"]');
  }

  function setText(element, text) {
    if (element && element.textContent !== text) element.textContent = text;
  }

  function show(rate) {
    // Another currency's rate (a cache in between that ignores query strings) is never shown as ours.
    if (rate && rate.currency && rate.currency !== currency) return;
    var empty = root.querySelector('[data-state="empty"]');
    var filled = root.querySelector('[data-state="rate"]');
    var has = rate && typeof rate.date === 'string' && typeof rate.buy === 'number' && typeof rate.sell === 'number';
    if (empty) empty.hidden = !!has;
    if (filled) filled.hidden = !has;
    if (!has) return;
    var values = root.querySelector('.widget__values');
    if (values) values.toggleAttribute('data-compact', format.compact(rate.buy) || format.compact(rate.sell));
    setText(field('buy'), format.money(rate.buy, lang));
    setText(field('sell'), format.money(rate.sell, lang));
    var time = field('date');
    if (time && time.getAttribute('datetime') !== rate.date) time.setAttribute('datetime', rate.date);
    setText(time, format.date(rate.date, lang));
    if (rate.source) setText(field('source'), rate.source);
  }

  function schedule(delaySeconds) {
    window.setTimeout(poll, delaySeconds * 1000);
  }

  function poll() {
    // A tab in the background does not need the rate; it is fetched again once it is seen.
    if (document.hidden) return schedule(seconds);
    var wait = seconds;
    window
      .fetch(url, { cache: 'no-cache', credentials: 'omit', headers: { accept: 'application/json' } })
      .then(function (response) {
        if (response.status === 429) wait = Math.max(seconds, Number(response.headers.get('retry-after')) || 60);
        if (!response.ok) throw new Error('HTTP ' + response.status);
        return response.json();
      })
      .then(show)
      .catch(function () {
        // Keep showing the last rate we had; the next round tries again.
      })
      .then(function () {
        schedule(wait);
      });
  }

  schedule(seconds);
})();
