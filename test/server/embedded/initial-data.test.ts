/**
 * An embedded database in memory can start from the files of another, as PGlite dumps them
 * (`initialData`): how every test's database starts from one migrated copy. The copy holds what
 * was stored, and writing to it leaves the original alone.
 */
import { createDatabase, type Database, embeddedHandle } from '../../../server/store/database';
import { migratedTemplate } from '../../helpers/database';

it('starts from the dumped files of another database, as a copy of its own', async () => {
  const original = createDatabase({ databaseUrl: null, dataDir: null, initialData: await migratedTemplate() });
  let copy: Database | null = null;
  try {
    await original.raw('CREATE TABLE notes (text text)');
    await original('notes').insert({ text: 'stored before the dump' });
    const dump = await embeddedHandle(original)?.pglite.dumpDataDir('none');
    copy = createDatabase({ databaseUrl: null, dataDir: null, initialData: dump });
    expect(await copy('notes').select('text')).toEqual([{ text: 'stored before the dump' }]);
    await copy('notes').insert({ text: 'stored in the copy' });
    expect(await original('notes').select('text')).toEqual([{ text: 'stored before the dump' }]);
  } finally {
    await Promise.all([original.destroy(), copy?.destroy()]);
  }
  // Two embedded databases started and one dumped: seconds on a quiet machine, past 30 s while
  // another suite shared its two cores.
}, 90_000);
