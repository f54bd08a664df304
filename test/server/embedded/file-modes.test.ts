/**
 * The embedded data folder is for the user who runs the service: the folder 700 from the start,
 * and its files 600 once the database has started and when it closes, whatever the umask; a
 * folder written before (or by hand) with wider modes is repaired when it is opened, and the log
 * says so once.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createDatabase } from '../../../server/store/database';
import { migrate } from '../../../server/store/migrations';

let dir: string;
let dataDir: string;
let umask: number;
// One folder for both tests: a fresh embedded database takes seconds to write.
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crc-modes-'));
  dataDir = path.join(dir, 'data');
  umask = process.umask(0o022);
});
afterAll(() => {
  process.umask(umask);
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Every folder and file under `root` (itself included) with its permission bits. */
function modes(root: string): Array<{ entry: string; directory: boolean; mode: number }> {
  const stat = fs.lstatSync(root);
  const own = { entry: root, directory: stat.isDirectory(), mode: stat.mode & 0o777 };
  return stat.isDirectory() ? [own, ...fs.readdirSync(root).flatMap((name) => modes(path.join(root, name)))] : [own];
}

const open = (folder: string, warnings: unknown[] = []) =>
  createDatabase({
    databaseUrl: null,
    dataDir: folder,
    logger: { warn: (obj) => void warnings.push(obj), error: () => undefined, debug: () => undefined },
  });

/**
 * Opens the folder, adds a table and rows (files written after the start), and closes it; the
 * folder is private while the database is open.
 */
async function useOnce(table: string, warnings: unknown[] = []): Promise<void> {
  const db = open(dataDir, warnings);
  try {
    await migrate(db);
    expect(fs.statSync(dataDir).mode & 0o777).toBe(0o700);
    await db.schema.createTable(table, (t) => t.integer('n'));
    await db(table).insert(Array.from({ length: 100 }, (_, n) => ({ n })));
  } finally {
    await db.destroy();
  }
}

const widened = (entries: ReturnType<typeof modes>) => entries.filter(({ directory, mode }) => (directory ? mode !== 0o700 : (mode & 0o077) !== 0));

it('creates the folder 700 and every file 600 at most under umask 022', async () => {
  await useOnce('first');
  const entries = modes(dataDir);
  expect(entries.length).toBeGreaterThan(100);
  expect(widened(entries)).toEqual([]);
});

it('repairs a folder whose files were left readable by others, says so once, and keeps new files private', async () => {
  for (const { entry, directory } of modes(dataDir)) fs.chmodSync(entry, directory ? 0o755 : 0o666);
  const wide = modes(dataDir).length;

  const warnings: unknown[] = [];
  await useOnce('second', warnings);
  expect(warnings).toEqual([expect.objectContaining({ dataDir, repaired: wide })]);
  expect(widened(modes(dataDir))).toEqual([]);

  // A private folder is opened without a word.
  const again: unknown[] = [];
  await useOnce('third', again);
  expect(again).toEqual([]);
});
