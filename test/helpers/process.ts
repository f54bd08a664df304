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
