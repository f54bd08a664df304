/**
 * The embedded database's folder holds the keys' hashes and the access requests' names and
 * emails: it is for the user who runs the service, no one else on the machine. PGlite writes its
 * files through Node as 666 (it sets the mode itself, past the umask), so the folder is what
 * keeps them: it is created 700, and nothing under a folder others cannot enter can be read by
 * them. The files themselves are made 600 too when the database opens, once PGlite has written
 * its start, and when it closes, so that a copy of the folder (a backup, a move) stays private;
 * a folder written before, or by hand, with wider modes is repaired the same way.
 */
import fs from 'node:fs';
import path from 'node:path';

/** The permission bits of the group and others. */
const OTHERS = 0o077;

/**
 * Makes `dataDir` (created if need be, 700) and everything in it private: folders 700, files 600
 * at most. Returns how many entries had to be repaired (0 for a folder that already was private).
 */
export function keepPrivate(dataDir: string): number {
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  return repair(dataDir);
}

function repair(entry: string): number {
  const stat = fs.lstatSync(entry, { throwIfNoEntry: false });
  // Gone meanwhile (PGlite removes temporary files), or a link: its own mode means nothing.
  if (!stat || stat.isSymbolicLink()) return 0;
  let repaired = 0;
  if (stat.mode & OTHERS) {
    fs.chmodSync(entry, stat.mode & 0o700);
    repaired += 1;
  }
  if (stat.isDirectory()) for (const name of fs.readdirSync(entry)) repaired += repair(path.join(entry, name));
  return repaired;
}
