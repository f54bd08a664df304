/**
 * Institution names come from the central bank's site, and are now stored without control
 * characters (store/banking.ts). This cleans the names stored before that.
 */
import type { Knex } from 'knex';
import { hasControls, plainText } from '../../domain/plain-text';

export async function up(db: Knex): Promise<void> {
  const rows: Array<{ id: string; name: string }> = await db('institutions').select('id', 'name');
  for (const { id, name } of rows.filter((row) => hasControls(row.name))) {
    await db('institutions')
      .where({ id })
      .update({ name: plainText(name) });
  }
}

/** What was taken out is not kept: going back leaves the names clean. */
export async function down(): Promise<void> {}
