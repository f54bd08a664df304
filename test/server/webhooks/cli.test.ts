/**
 * `npm run webhooks -- list|remove ID` as the operator runs it (a child process on the test's own
 * database): every key's subscriptions listed, stored text printed with its control characters
 * visible, removal, and the exit codes 0, 1 and 2.
 */
import { createApiKeysStore } from '../../../server/store/api-keys';
import { createWebhooksStore } from '../../../server/store/webhooks';
import { type CliFixture, createCliFixture, runCli } from '../../helpers/cli';

let cli: CliFixture;

// Each test runs the command as a child process, some several times: seconds each, and more
// while the other test worker keeps the machine's two cores busy.
jest.setTimeout(120_000);
beforeAll(async () => {
  cli = await createCliFixture('webhooks');
  // Migrates the database as any command does first.
  expect((await runCli('webhooks', ['list'], cli.env)).stdout.trim()).toBe('(none)');
  await cli.withStoredData(async (db) => {
    const { record } = await createApiKeysStore(db).create({ name: 'shop', plan: 'pro' });
    await createWebhooksStore(db).create({
      id: 'wh_abcdefghijklmnopqrst',
      keyId: record.id,
      url: 'https://example.com/\u001b[2Jhook',
      events: ['rate.published'],
      currency: 'EUR',
      threshold: null,
      secretSealed: 'sealed',
      createdAt: new Date('2026-11-20T18:00:00Z'),
      thresholdState: null,
    });
  });
});
afterAll(() => cli.close());

it('lists every subscription, with control characters made visible, and as JSON', async () => {
  const text = await runCli('webhooks', ['list'], cli.env);
  expect(text.code).toBe(0);
  expect(text.stdout).toContain('wh_abcdefghijklmnopqrst');
  expect(text.stdout).toContain('EUR');
  expect(text.stdout).not.toContain('\u001b');
  const json = await runCli('webhooks', ['list', '--json'], cli.env);
  expect(JSON.parse(json.stdout)).toEqual([expect.objectContaining({ id: 'wh_abcdefghijklmnopqrst', events: ['rate.published'], disabled: false })]);
  expect(json.stdout).not.toContain('sealed');
});

it('a wrong command line exits 2; removing an unknown id exits 1; removing one exits 0', async () => {
  expect((await runCli('webhooks', ['frobnicate'], cli.env)).code).toBe(2);
  expect((await runCli('webhooks', ['remove'], cli.env)).code).toBe(2);
  expect((await runCli('webhooks', ['remove', 'wh_nope'], cli.env)).code).toBe(1);
  const removed = await runCli('webhooks', ['remove', 'wh_abcdefghijklmnopqrst'], cli.env);
  expect([removed.code, removed.stdout.trim()]).toEqual([0, 'Removed webhook subscription wh_abcdefghijklmnopqrst.']);
  expect((await runCli('webhooks', ['list'], cli.env)).stdout.trim()).toBe('(none)');
});
