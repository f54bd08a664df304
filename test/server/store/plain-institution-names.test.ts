/**
 * Institution names are upstream text: stored without control characters, and migration 009
 * cleans the names stored before.
 */
import { createBankingStore } from '../../../server/store/banking';
import { migrate } from '../../../server/store/migrations';
import { createTestDatabase, migrateDownTo, type TestDatabase } from '../../helpers/database';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.drop());

const names = async () => (await database.db('institutions').select('id', 'name').orderBy('id')).map((row) => [row.id, row.name]);

it('the migration cleans names stored before it, and leaves clean ones as they were', async () => {
  await migrateDownTo(database.db, '008_rate_provenance');
  await database.db('institutions').insert([
    { id: 'a', name: '\u001b[2JCasa\u0007 Terminal\r\n', type: 'exchange_house', known: false },
    { id: 'b', name: '\t=HYPERLINK("http://example.com","Casa")', type: 'exchange_house', known: false },
    { id: 'c', name: 'Banco  Nacional de Costa Rica', type: 'public_bank', known: true },
  ]);
  await migrate(database.db);
  expect(await names()).toEqual([
    ['a', '[2JCasa Terminal'],
    ['b', '=HYPERLINK("http://example.com","Casa")'],
    // No control character: not touched, double space and all.
    ['c', 'Banco  Nacional de Costa Rica'],
  ]);
});

it('a day saved with such names stores them without control characters', async () => {
  await createBankingStore(database.db).saveDay({
    date: '2025-01-15',
    source: 'bccr-site',
    fetchedAt: new Date(),
    institutions: [{ id: 'd', name: 'Casa\u0000 <script>alert(1)</script>\u009b', type: 'exchange_house', known: false }],
    quotes: [{ institutionId: 'd', buy: 500, sell: 510, updatedAt: null }],
  });
  expect((await names()).find(([id]) => id === 'd')).toEqual(['d', 'Casa <script>alert(1)</script>']);
});
