/** After the run: the commands compiled by test/global-setup.mjs go. */
import fs from 'node:fs';

export default function removeCommands() {
  const outdir = process.env.CRC_TEST_COMMANDS;
  if (outdir) fs.rmSync(outdir, { recursive: true, force: true });
}
