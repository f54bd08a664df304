/**
 * What `npm run keys` and `npm run sync` say about themselves, run as an operator runs them (a
 * child process): `--help`, `-h` and `help COMMAND` print the usage on stdout and exit 0; a
 * mistake prints one line and the usage on stderr and exits 2. Neither opens the database.
 */
import fs from 'node:fs';
import { createCliFixture, runCli, type CliFixture } from '../../helpers/cli';

/** A child process compiles the command first: a few seconds each, many more on a busy machine. */
const SLOW = 240_000;

let fixture: CliFixture;
beforeAll(async () => {
  fixture = await createCliFixture('cli-help', { empty: true });
});
afterAll(() => fixture.close());

const keys = (...args: string[]) => runCli('keys', args, fixture.env);
const sync = (...args: string[]) => runCli('sync', args, fixture.env);

/** The embedded database is created by the first command that opens it: nothing did. */
function expectDatabaseUntouched() {
  if (!fixture.postgres) expect(fs.readdirSync(fixture.dataDir)).toEqual([]);
}

const KEYS_HELP = `usage: npm run keys -- COMMAND [options]

Makes, lists and revokes API keys, and lists the access requests, on the service's database.

commands:
  create    make a key and print it once
  list      every key with its limits and this month's usage
  revoke    stop a key at once
  requests  the access requests sent from the site's form

npm run keys -- help COMMAND (or COMMAND --help) explains one of them.
`;

const SYNOPSIS = `usage:
  npm run keys -- create --name NAME --plan pro|custom [--quota N] [--rate N] [--json]
  npm run keys -- list [--json]
  npm run keys -- revoke ID
  npm run keys -- requests [--json]
  npm run keys -- help [COMMAND]
`;

/** Each command's usage line and the options its help lists (besides -h, --help). */
const COMMANDS: Record<string, { usage: string; options: string[] }> = {
  create: {
    usage: 'usage: npm run keys -- create --name NAME --plan pro|custom [--quota N] [--rate N] [--json]',
    options: ['name', 'plan', 'quota', 'rate', 'json'],
  },
  list: { usage: 'usage: npm run keys -- list [--json]', options: ['json'] },
  revoke: { usage: 'usage: npm run keys -- revoke ID', options: [] },
  requests: { usage: 'usage: npm run keys -- requests [--json]', options: ['json'] },
};

/** The options a help text lists, one per line that starts with one. */
const listedOptions = (help: string) => [...help.matchAll(/^ {2}(?:-[a-z], )?--([a-z]+)/gm)].map((m) => m[1]);

describe('npm run keys', () => {
  it(
    'prints its help on stdout and exits 0 for --help, -h and help',
    async () => {
      const results = await Promise.all([keys('--help'), keys('-h'), keys('help')]);
      for (const result of results) expect(result).toEqual({ code: 0, stdout: KEYS_HELP, stderr: '' });
      expectDatabaseUntouched();
    },
    SLOW,
  );

  it(
    'explains each command for help COMMAND, COMMAND --help and COMMAND -h alike',
    async () => {
      // All three forms for create; one form each for the others (each run is a process of its own).
      const forms: Array<[string, string[]]> = [
        ['create', ['help', 'create']],
        ['create', ['create', '--help']],
        ['create', ['create', '-h']],
        ['list', ['help', 'list']],
        ['revoke', ['revoke', '--help']],
        ['requests', ['requests', '-h']],
      ];
      const results = await Promise.all(forms.map(([, args]) => keys(...args)));
      results.forEach((result, i) => {
        const [name] = forms[i] as [string, string[]];
        const { usage, options } = COMMANDS[name] as { usage: string; options: string[] };
        expect({ code: result.code, stderr: result.stderr, firstLine: result.stdout.split('\n')[0] }).toEqual({ code: 0, stderr: '', firstLine: usage });
        expect(listedOptions(result.stdout)).toEqual([...options, 'help']);
      });
      // The three forms print the same text.
      expect(new Set(results.slice(0, 3).map((r) => r.stdout)).size).toBe(1);
      // Help wins over the rest of the line, even a mistake in it.
      expect((await keys('create', '--plan', 'gold', '--bogus', '--help')).stdout.split('\n')[0]).toBe(COMMANDS.create?.usage);
      expectDatabaseUntouched();
    },
    SLOW,
  );

  it(
    'refuses a mistake with one line, the usage and exit 2, on stderr only',
    async () => {
      const createUsage = `${COMMANDS.create?.usage}\n(npm run keys -- help create explains it)\n`;
      const listUsage = `${COMMANDS.list?.usage}\n(npm run keys -- help list explains it)\n`;
      const cases: Array<[string[], string]> = [
        [['create', '--name', 'X', '--plan', 'pro', '--foo'], `unknown option --foo\n${createUsage}`],
        [['create', '--name', 'X', '--plan', 'pro', '-x'], `unknown option -x\n${createUsage}`],
        [['--foo'], `unknown option --foo\n${SYNOPSIS}`],
        [['list', '--name', 'X'], `list takes no --name\n${listUsage}`],
        [['list', 'all'], `list takes no arguments (got "all")\n${listUsage}`],
        [['create', '--name', '--plan', 'pro'], `--name needs a value (got the option --plan)\n${createUsage}`],
        [['create', '--name', 'X', '--name', 'Y', '--plan', 'pro'], `--name is given twice\n${createUsage}`],
        [['create', '--name', 'X', '--plan', 'pro', '--json=yes'], `--json takes no value (got "yes")\n${createUsage}`],
        [['create', '--name', 'My', 'app', '--plan', 'pro'], `create takes no arguments (got "app")\n${createUsage}`],
        [['help', 'rotate'], `unknown command "rotate"\n${SYNOPSIS}`],
        [['rotate'], `unknown command "rotate"\n${SYNOPSIS}`],
        [[], `no command given\n${SYNOPSIS}`],
      ];
      const results = await Promise.all(cases.map(([args]) => keys(...args)));
      results.forEach((result, i) => {
        const [args, stderr] = cases[i] as [string[], string];
        expect({ args, ...result }).toEqual({ args, code: 2, stdout: '', stderr });
      });
      expectDatabaseUntouched();
    },
    SLOW,
  );
});

describe('npm run sync', () => {
  it(
    'prints its help for --help and -h, and refuses an unknown option with one line and the usage',
    async () => {
      const requests = fixture.fake.requests.length;
      const [long, short, unknown] = await Promise.all([sync('--help'), sync('-h'), sync('--since', '2026-03-01')]);
      expect({ code: long.code, stderr: long.stderr, firstLine: long.stdout.split('\n')[0] }).toEqual({
        code: 0,
        stderr: '',
        firstLine: 'usage: npm run sync -- [--from YYYY-MM-DD] [--to YYYY-MM-DD] [--banking] [--currencies] [--monex]',
      });
      expect(listedOptions(long.stdout)).toEqual(['from', 'to', 'banking', 'currencies', 'monex', 'help']);
      expect(short).toEqual(long);
      expect(unknown).toEqual({
        code: 2,
        stdout: '',
        stderr: 'unknown option --since\nusage: npm run sync -- [--from YYYY-MM-DD] [--to YYYY-MM-DD] [--banking] [--currencies] [--monex]\n',
      });
      // Nothing was fetched, nothing was opened.
      expect(fixture.fake.requests).toHaveLength(requests);
      expectDatabaseUntouched();
    },
    SLOW,
  );
});
