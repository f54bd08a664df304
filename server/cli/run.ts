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
      const known =
        error instanceof UsageError ||
        error instanceof ConfigError ||
        error instanceof DataDirInUseError ||
        (error instanceof TypeError && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS'));
      process.stderr.write(`${known ? (error as Error).message : error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exitCode = known ? 2 : 1;
    });
}
