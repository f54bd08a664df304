/**
 * Jest's order (files that failed last time first, then the longest first), with the browser
 * tests spread through it. Left together, the longest files are the browser ones, and the two
 * workers ran two Chromiums at once on a two-core machine, each file two to three times slower
 * than alone. Spread, each browser file runs beside files that only wait on servers and commands.
 *
 * A file weighs its time in the last run (one, before any run has been timed): browser file k of
 * n starts once the other files before it add up to k / n of their whole.
 */
const Sequencer = require('@jest/test-sequencer').default;

const isBrowser = (test) => test.path.endsWith('.browser.test.ts');

/** Browser file k of n goes where the other files before it weigh k / n of their whole. */
function spreadBrowserFiles(ordered) {
  const browsers = ordered.filter(isBrowser);
  const others = ordered.filter((test) => !isBrowser(test));
  const weight = (test) => test.duration ?? 1;
  const total = others.reduce((sum, test) => sum + weight(test), 0);
  const spread = [];
  let placed = 0;
  let before = 0;
  for (const test of others) {
    while (placed < browsers.length && before >= (total * placed) / browsers.length) spread.push(browsers[placed++]);
    spread.push(test);
    before += weight(test);
  }
  return [...spread, ...browsers.slice(placed)];
}

class SpreadBrowserTests extends Sequencer {
  sort(tests) {
    return spreadBrowserFiles(super.sort(tests));
  }
}

module.exports = SpreadBrowserTests;
module.exports.spreadBrowserFiles = spreadBrowserFiles;
