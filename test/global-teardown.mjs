/** After the run: what test/global-setup.mjs prepared (the compiled commands, the database template) goes. */
import fs from 'node:fs';

export default function removePrepared() {
  const outdir = process.env.CRC_TEST_COMMANDS;
  if (outdir) fs.rmSync(outdir, { recursive: true, force: true });
}
