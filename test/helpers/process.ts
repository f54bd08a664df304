/** Waiting on a child process the tests started: the first stdout line that matches, within a bound. */
import type { ChildProcessWithoutNullStreams } from 'node:child_process';

export function waitForLine(child: ChildProcessWithoutNullStreams, pattern: RegExp, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let buffer = '';
    const timer = setTimeout(() => reject(new Error(`no line matching ${pattern} within ${timeoutMs} ms:\n${buffer}`)), timeoutMs);
    child.stdout.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      const line = buffer.split('\n').find((l) => pattern.test(l));
      if (line) {
        clearTimeout(timer);
        resolve(line);
      }
    });
  });
}

/**
 * How long a test waits for a server it started to say "listening": it compiles, opens (and, in
 * an empty folder, migrates) its database first. A few seconds on a quiet machine, but several
 * times that on a slow one running the whole suite beside it; a bound only catches a hang.
 */
export const SERVER_START_MS = 90_000;

/** Sends `signal` and resolves with the exit code once the child has exited (null if a signal ended it). */
export function stopChild(child: ChildProcessWithoutNullStreams, signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  child.kill(signal);
  return exited;
}
