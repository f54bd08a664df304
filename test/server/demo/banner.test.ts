/**
 * The demo's banner prints a command to paste into a shell: the data folder in it must reach
 * `npm run keys` exactly as it is, whatever characters the temporary folder's path holds.
 */
import { spawnSync } from 'node:child_process';
import { demoBanner, demoKeysCommand, shellWord } from '../../../server/demo/banner';

const echoed = (word: string) => spawnSync('sh', ['-c', `printf %s ${shellWord(word)}`], { encoding: 'utf8' }).stdout;

it.each(['/tmp/crc-rates-demo-Ab3_x9', '/Users/Ana María/tmp/crc-rates-demo-1', "/tmp/it's here/$HOME/`x`", '/tmp/a"b;c&d'])(
  'passes %s through the shell unchanged',
  (dir) => {
    expect(echoed(dir)).toBe(dir);
  },
);

it('names the demo folder and clears the settings the demo ignored, so the key lands in the demo', () => {
  expect(demoKeysCommand('/tmp/crc-rates-demo-Ab3', [])).toBe('DATA_DIR=/tmp/crc-rates-demo-Ab3 npm run keys -- create --name "My app" --plan pro');
  expect(demoKeysCommand('/tmp/my demo', ['DATABASE_URL', 'REDIS_URL'])).toBe(
    `DATABASE_URL= REDIS_URL= DATA_DIR='/tmp/my demo' npm run keys -- create --name "My app" --plan pro`,
  );
  const banner = demoBanner({ url: 'http://localhost:3000', key: 'crc_live_x', dataDir: '/tmp/d', ignoredSettings: [] });
  expect(banner).toContain('  more keys DATA_DIR=/tmp/d npm run keys -- create --name "My app" --plan pro\n');
});
