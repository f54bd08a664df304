/** The frame of every command: its exit code, and errors printed as one clear line. */
import { ConfigError } from '../config';
import { DataDirInUseError } from '../store/database';

export class UsageError extends Error {}

export function runCli(main: () => Promise<number>): void {
  main()
    .then((code) => {
      process.exitCode = code;
    })
    .catch((error: unknown) => {
      const usage =
        error instanceof UsageError ||
        error instanceof ConfigError ||
        (error instanceof TypeError && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS'));
      // Not a mistake in the command line: the database is busy with another command; try again later.
      const busy = error instanceof DataDirInUseError;
      process.stderr.write(`${usage || busy ? (error as Error).message : error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exitCode = usage ? 2 : 1;
    });
}
