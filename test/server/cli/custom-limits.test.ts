/**
 * `npm run keys -- create --plan custom` without limits of its own: the key takes Pro's, as the
 * operator interface says, and the command says which it took, on stderr, so that `--json` still
 * prints one JSON document. Run as an operator runs it, on the test's own database.
 */
import { createApiKeysStore } from '../../../server/store/api-keys';
import { createCliFixture, runCli, type CliFixture } from '../../helpers/cli';

const SLOW = 240_000;

let fixture: CliFixture;
beforeAll(async () => {
  fixture = await createCliFixture('custom-limits');
});
afterAll(() => fixture.close());

const keys = (...args: string[]) => runCli('keys', args, fixture.env);

interface Created {
  id: number;
  name: string;
  plan: string;
  key: string;
  monthlyQuota: number;
  ratePerMinute: number;
}

it(
  'takes Pro’s limits for the ones not given, names them, and stores exactly those',
  async () => {
    // One after another: two commands at once on the embedded database are refused by design.
    const none = await keys('create', '--name', 'Finca Sol', '--plan', 'custom', '--json');
    const noRate = await keys('create', '--name', 'Cafetal', '--plan', 'custom', '--quota', '20000', '--json');
    const noQuota = await keys('create', '--name', 'Lechería', '--plan', 'custom', '--rate', '5', '--json');
    const both = await keys('create', '--name', 'Trapiche', '--plan', 'custom', '--quota', '7', '--rate', '3', '--json');
    const pro = await keys('create', '--name', 'Ana', '--plan', 'pro', '--json');

    expect([none, noRate, noQuota, both, pro].map((r) => [r.code, r.stderr])).toEqual([
      [0, "--plan custom without --quota and --rate: took Pro's limits, 5000 requests/month and 60/min (give --quota N and --rate N to set others)\n"],
      [0, "--plan custom without --rate: took Pro's limit, 60/min (give --rate N to set another)\n"],
      [0, "--plan custom without --quota: took Pro's limit, 5000 requests/month (give --quota N to set another)\n"],
      [0, ''],
      [0, ''],
    ]);
    const created = [none, noRate, noQuota, both, pro].map((r) => JSON.parse(r.stdout) as Created);
    expect(created.map(({ name, plan, monthlyQuota, ratePerMinute }) => ({ name, plan, monthlyQuota, ratePerMinute }))).toEqual([
      { name: 'Finca Sol', plan: 'custom', monthlyQuota: 5000, ratePerMinute: 60 },
      { name: 'Cafetal', plan: 'custom', monthlyQuota: 20000, ratePerMinute: 60 },
      { name: 'Lechería', plan: 'custom', monthlyQuota: 5000, ratePerMinute: 5 },
      { name: 'Trapiche', plan: 'custom', monthlyQuota: 7, ratePerMinute: 3 },
      { name: 'Ana', plan: 'pro', monthlyQuota: 5000, ratePerMinute: 60 },
    ]);

    const stored = await fixture.withStoredData((db) => createApiKeysStore(db).list());
    expect(
      created.map((c) => {
        const row = stored.find((k) => k.id === c.id);
        return row && { plan: row.plan, monthlyQuota: row.monthlyQuota, ratePerMinute: row.ratePerMinute };
      }),
    ).toEqual(created.map(({ plan, monthlyQuota, ratePerMinute }) => ({ plan, monthlyQuota, ratePerMinute })));
  },
  SLOW,
);

it(
  'says the same when it prints the key as text',
  async () => {
    const result = await keys('create', '--name', 'Pulpería', '--plan', 'custom');
    expect(result.code).toBe(0);
    expect(result.stderr).toBe(
      "--plan custom without --quota and --rate: took Pro's limits, 5000 requests/month and 60/min (give --quota N and --rate N to set others)\n",
    );
    expect(result.stdout).toMatch(
      /^Created key \d+ "Pulpería" \(custom: 5000 requests\/month, 60\/min\)\.\n\n {2}crc_live_[A-Za-z0-9_-]{43}\n\nThis is the only time the key is shown: store it now\.\n$/,
    );
  },
  SLOW,
);
