/**
 * What `npm run demo` prints once it serves: where, the key it made, a line to paste, and the
 * command that makes more keys on it. The demo's data lives in a temporary folder, not in the
 * `./data` that `npm run keys` uses by default, so that command has to name the folder (and clear
 * the database settings the demo ignored), or its keys would land somewhere the demo never looks.
 */
import { API_PREFIX } from '../http/urls';

export interface BannerFacts {
  /** The root the demo answers at, `http://localhost:3000`. */
  url: string;
  key: string;
  dataDir: string;
  /** Settings of the shell the demo replaced (DATABASE_URL, REDIS_URL): a command must not follow them. */
  ignoredSettings: readonly string[];
}

/** A word as a POSIX shell reads it back unchanged: bare when it is safe, single-quoted otherwise. */
export function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

/** The exact command that creates a key on this demo, from the repository's folder. */
export function demoKeysCommand(dataDir: string, ignoredSettings: readonly string[]): string {
  const settings = [...ignoredSettings.map((name) => `${name}=`), `DATA_DIR=${shellWord(dataDir)}`];
  return `${settings.join(' ')} npm run keys -- create --name "My app" --plan pro`;
}

export function demoBanner({ url, key, dataDir, ignoredSettings }: BannerFacts): string {
  return [
    'crc-rates demo: simulated data, not the central bank\'s (every rate says "source": "DEMO").',
    `  site      ${url}/`,
    `  API key   ${key}`,
    `  try it    curl -H "x-api-key: ${key}" ${url}${API_PREFIX}/exchange-rate/latest`,
    `  data      ${dataDir} (a fresh database, deleted when the demo stops)`,
    `  more keys ${demoKeysCommand(dataDir, ignoredSettings)}`,
    'Stop it with Ctrl+C.',
    '',
  ].join('\n');
}
