/**
 * What a server logged besides its access lines (one per request): warnings, errors, and notices
 * such as "Redis is back", counted by level, the first few quoted; and what it printed on stderr.
 */
import fs from 'node:fs';
import readline from 'node:readline';

export interface LogSummary {
  /** Access lines: one per answered request. */
  requests: number;
  /** Every other line, by pino level name. */
  others: Record<string, number>;
  /** The first few of those, shortened. */
  quoted: string[];
  /** stderr's lines (stack traces' `at` lines left out), by how often each appeared. */
  stderr: Record<string, number>;
}

const LEVELS: Record<number, string> = { 10: 'trace', 20: 'debug', 30: 'info', 40: 'warn', 50: 'error', 60: 'fatal' };
const QUOTED = 5;

export async function summariseLog(file: string, stderrFile: string): Promise<LogSummary> {
  const summary: LogSummary = { requests: 0, others: {}, quoted: [], stderr: await summariseStderr(stderrFile) };
  if (!fs.existsSync(file)) return summary;
  for await (const line of readline.createInterface({ input: fs.createReadStream(file) })) {
    // pino writes the message last, and createLogger's lines start with the level: `{"level":30,…`.
    if (line.endsWith('"msg":"request"}')) {
      summary.requests++;
      continue;
    }
    const level = LEVELS[Number(line.slice(9, 11))] ?? 'other';
    summary.others[level] = (summary.others[level] ?? 0) + 1;
    if (summary.quoted.length < QUOTED) summary.quoted.push(line.length > 300 ? `${line.slice(0, 300)}…` : line);
  }
  return summary;
}

/**
 * What a server printed on stderr rather than through its logger (Koa's default error handler
 * prints a stack trace there, e.g. when a client goes away during a compressed answer): how often
 * each error message appeared.
 */
async function summariseStderr(file: string): Promise<Record<string, number>> {
  const errors: Record<string, number> = {};
  if (!fs.existsSync(file)) return errors;
  for await (const line of readline.createInterface({ input: fs.createReadStream(file) })) {
    const message = line.trim();
    // A stack trace's first line names the error; its `at …` lines do not count.
    if (message === '' || message.startsWith('at ')) continue;
    errors[message] = (errors[message] ?? 0) + 1;
  }
  return errors;
}
