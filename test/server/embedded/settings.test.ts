/** The embedded database's PostgreSQL settings, on a data folder as `npm start` opens it. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createDatabase } from '../../../server/store/database';
import { migratedTemplate } from '../../helpers/database';

it('keeps a 16 MB buffer cache, not the 128 MB PGlite would allocate in full as it opens', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crc-settings-'));
  // Its files from the migrated copy, not from initdb: the settings are the ones it opens with.
  const db = createDatabase({ databaseUrl: null, dataDir: dir, initialData: await migratedTemplate() });
  try {
    const { rows } = await db.raw<{ rows: Array<{ shared_buffers: string }> }>('SHOW shared_buffers');
    expect(rows[0]?.shared_buffers).toBe('16MB');
  } finally {
    await db.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
