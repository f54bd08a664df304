/** What `npm run demo` prints once it serves: where, the key it made, a line to paste. */
import { API_PREFIX } from '../http/urls';

export interface BannerFacts {
  /** The root the demo answers at, `http://localhost:3000`. */
  url: string;
  key: string;
  dataDir: string;
}

export function demoBanner({ url, key, dataDir }: BannerFacts): string {
  return [
    'crc-rates demo: simulated data, not the central bank\'s (every rate says "source": "DEMO").',
    `  site      ${url}/`,
    `  API key   ${key}`,
    `  try it    curl -H "x-api-key: ${key}" ${url}${API_PREFIX}/exchange-rate/latest`,
    `  data      ${dataDir} (a fresh database, deleted when the demo stops)`,
    'Stop it with Ctrl+C.',
    '',
  ].join('\n');
}
