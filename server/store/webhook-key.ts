/**
 * The key webhook secrets are sealed with (domain/webhooks/seal.ts), and where it comes from:
 * WEBHOOK_SECRET_KEY when the operator sets it (any text; its SHA-256 is the key); otherwise, on
 * the embedded database, a random key kept in the private data folder beside it (made on first
 * use, 600); otherwise, on PostgreSQL, one derived from DATABASE_URL, which every instance of the
 * same deployment shares, so each can read what another sealed. A dump of the database alone
 * then reveals no secret; the log says which key is used, and suggests the variable where it is
 * not set.
 */
import { hkdfSync, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { sealKeyOf } from '../domain/webhooks/seal';

export const KEY_FILE = 'webhook-secret.key';

export interface SealKey {
  key: Buffer;
  /** For the log line: where the key came from. */
  origin: 'WEBHOOK_SECRET_KEY' | 'data folder' | 'DATABASE_URL';
}

export function resolveSealKey(options: { secretKey: string | null; databaseUrl: string | null; dataDir: string }): SealKey {
  if (options.secretKey) return { key: sealKeyOf(options.secretKey), origin: 'WEBHOOK_SECRET_KEY' };
  if (options.databaseUrl) {
    return { key: Buffer.from(hkdfSync('sha256', options.databaseUrl, 'crc-rates', 'webhook secrets', 32)), origin: 'DATABASE_URL' };
  }
  const file = path.join(options.dataDir, KEY_FILE);
  if (!fs.existsSync(file)) {
    fs.mkdirSync(options.dataDir, { recursive: true, mode: 0o700 });
    try {
      // `wx`: two processes starting at once keep the first one's key.
      fs.writeFileSync(file, randomBytes(32).toString('base64'), { mode: 0o600, flag: 'wx' });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  return { key: sealKeyOf(fs.readFileSync(file, 'utf8').trim()), origin: 'data folder' };
}
