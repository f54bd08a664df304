/**
 * The bench's child processes: built the way production builds the server (one esbuild bundle, run
 * by plain `node`), started with a JSON-lines conversation on stdin/stdout, and read from /proc for
 * their CPU time and memory.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import * as esbuild from 'esbuild';

const ROOT = path.resolve(__dirname, '..');

/**
 * Bundles the bench's entries with scripts/build.mjs's options (production runs `node dist/main.js`,
 * not the TypeScript loader, which renames every function made per request), with the site's
 * assets beside them as in dist/. Returns the folder; the caller removes it.
 */
export async function bundle(entries: Record<string, string>): Promise<string> {
  // Inside the project (bench/results is ignored by git), so the bundle finds node_modules above it.
  const parent = path.join(ROOT, 'bench/results');
  fs.mkdirSync(parent, { recursive: true });
  const outdir = fs.mkdtempSync(path.join(parent, 'build-'));
  await esbuild.build({
    absWorkingDir: ROOT,
    entryPoints: entries,
    outdir,
    bundle: true,
    packages: 'external',
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    sourcemap: true,
    logLevel: 'warning',
  });
  fs.cpSync(path.join(ROOT, 'server/site/assets'), path.join(outdir, 'assets'), { recursive: true });
  return outdir;
}

/** A child that speaks one JSON object per line on stdout and takes commands on stdin. */
export interface Child {
  pid: number;
  process: ChildProcess;
  /** The next line whose `event` is `event`. */
  next<T>(event: string): Promise<T>;
  send(command: string): void;
  /** SIGTERM, then waits for the exit (SIGKILL after `graceMs`). */
  stop(graceMs?: number): Promise<void>;
}

/**
 * glibc's arenas as the Dockerfile and `npm start` set them (scripts/run.mjs), for every process
 * the bench measures, the baselines and the PGlite floor as well as the servers, unless the
 * runner's own environment sets another number.
 */
export const MALLOC_ARENA_MAX = process.env.MALLOC_ARENA_MAX ?? '2';

/**
 * Starts `node script`. Its stderr goes to `stderrFile` when given (a server prints there what its
 * logger does not carry, a stack trace per broken response), else to ours.
 */
export function startChild(script: string, env: NodeJS.ProcessEnv, stderrFile?: string): Child {
  const stderr = stderrFile ? fs.openSync(stderrFile, 'w') : 'inherit';
  // As the Dockerfile starts the server; --expose-gc only lets bench/server.ts collect its seeding's garbage.
  const child = spawn(process.execPath, ['--enable-source-maps', '--expose-gc', script], {
    cwd: ROOT,
    env: { ...env, MALLOC_ARENA_MAX },
    stdio: ['pipe', 'pipe', stderr],
  });
  if (typeof stderr === 'number') fs.closeSync(stderr);
  const waiting = new Map<string, Array<(value: unknown) => void>>();
  const early = new Map<string, unknown[]>();
  let exited: Error | null = null;
  const failures = new Set<(error: Error) => void>();

  readline.createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (line) => {
    if (!line.startsWith('{')) return;
    const message = JSON.parse(line) as { event?: string };
    const event = message.event ?? '';
    const resolve = waiting.get(event)?.shift();
    if (resolve) resolve(message);
    else early.set(event, [...(early.get(event) ?? []), message]);
  });
  const exit = new Promise<void>((resolve) => {
    child.once('exit', (code, signal) => {
      const said = stderrFile && fs.existsSync(stderrFile) ? `:\n${fs.readFileSync(stderrFile, 'utf8').slice(-2000)}` : '';
      exited = new Error(`${path.basename(script)} exited (${signal ?? code})${said}`);
      for (const fail of failures) fail(exited);
      resolve();
    });
  });

  return {
    pid: child.pid ?? 0,
    process: child,
    next<T>(event: string): Promise<T> {
      const queued = early.get(event)?.shift();
      if (queued) return Promise.resolve(queued as T);
      if (exited) return Promise.reject(exited);
      return new Promise<T>((resolve, reject) => {
        const done = (value: unknown) => {
          failures.delete(reject);
          resolve(value as T);
        };
        failures.add(reject);
        waiting.set(event, [...(waiting.get(event) ?? []), done]);
      });
    },
    send(command: string) {
      child.stdin?.write(`${command}\n`);
    },
    async stop(graceMs = 10_000) {
      if (exited) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exit;
      clearTimeout(timer);
    },
  };
}

/** Clock ticks per second of /proc's CPU times (100 on Linux almost everywhere; asked anyway). */
const CLOCK_TICKS = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

/** User plus system CPU time of a process so far, in microseconds; 0 once it is gone. */
export function cpuMicros(pid: number): number {
  let stat: string;
  try {
    stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return 0;
  }
  // The command name (field 2) may hold spaces: count fields after its closing parenthesis.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime and stime are fields 14 and 15 of the whole line, 12 and 13 after the name.
  const ticks = Number(fields[11]) + Number(fields[12]);
  return (ticks * 1e6) / CLOCK_TICKS;
}

/** Resident memory now and at its peak, in MB. */
export function memoryMb(pid: number): { rssMb: number; peakRssMb: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rssMb: Math.round(kb('VmRSS') / 1024), peakRssMb: Math.round(kb('VmHWM') / 1024) };
}
