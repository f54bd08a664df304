/**
 * Writes sdk/src/params.generated.ts from the server's route list. From the repository root:
 *
 *   node --import tsx sdk/scripts/generate-params.ts           write the file
 *   node --import tsx sdk/scripts/generate-params.ts --check   exit 1 if it is stale
 */
import fs from 'node:fs';
import path from 'node:path';
import { PARAMS_FILE, GENERATE_COMMAND, renderParams } from './params/render';
import { routeList } from './params/route-list';

const file = path.resolve(__dirname, '../..', PARAMS_FILE);
const text = renderParams(routeList());

if (process.argv.includes('--check')) {
  const current = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : null;
  if (current !== text) {
    console.error(`${PARAMS_FILE} is stale: run ${GENERATE_COMMAND}`);
    process.exit(1);
  }
  console.log(`${PARAMS_FILE} is up to date`);
} else {
  fs.writeFileSync(file, text);
  console.log(`wrote ${PARAMS_FILE}`);
}
