/**
 * The parts of Docker Compose's reading of a file and a command line that the README relies on,
 * written out because no container engine runs here: the short and long `ports` syntax,
 * `${VAR:-default}` interpolation, and which services a `docker compose …` command names.
 */

export interface PublishedPort {
  /** The host port, or null when Compose picks a random one (`"3000"`). */
  published: number | null;
  /** The container's port. */
  target: number;
}

/** `"3000"`, `"3000:3000"`, `"127.0.0.1:3000:3000/tcp"`, or `{ target, published }`. */
export function portOf(entry: unknown): PublishedPort {
  if (typeof entry === 'object' && entry !== null && 'target' in entry) {
    const { target, published } = entry as { target: unknown; published?: unknown };
    return { target: Number(target), published: published === undefined ? null : Number(published) };
  }
  if (typeof entry !== 'string' && typeof entry !== 'number') throw new TypeError(`not a port: ${JSON.stringify(entry)}`);
  const parts = String(entry).split('/')[0]?.split(':') ?? [];
  const target = Number(parts.at(-1));
  const host = parts.length >= 2 ? parts.at(-2) : undefined;
  if (host?.includes('-')) throw new TypeError(`a host port range is not one port: ${String(entry)}`);
  return { target, published: host === undefined || host === '' ? null : Number(host) };
}

/**
 * Compose's interpolation of one value: `$$` is a dollar sign, `${NAME}` and `$NAME` the shell's
 * value (empty when unset), `${NAME:-x}` x when unset or empty, `${NAME-x}` x when unset,
 * `${NAME:?message}` and `${NAME?message}` an error.
 */
export function interpolate(value: string, shell: Readonly<Record<string, string | undefined>>): string {
  return value.replace(/\$(\$|\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?)([-?])([^}]*))?\}|([A-Za-z_][A-Za-z0-9_]*))/g, (_all, body, braced, colon, kind, word, bare) => {
    if (body === '$') return '$';
    const name = (braced ?? bare) as string;
    const set = shell[name];
    const missing = set === undefined || (colon === ':' && set === '');
    if (kind === '-' && missing) return word as string;
    if (kind === '?' && missing) throw new Error(`${name}: ${word as string}`);
    return set ?? '';
  });
}

/** Splits a command line as a POSIX shell does for plain words and '…' or "…" quotes. */
export function shellWords(line: string): string[] {
  const words: string[] = [];
  const pattern = /"((?:[^"\\]|\\.)*)"|'([^']*)'|(\S+)/g;
  for (const m of line.matchAll(pattern)) words.push(m[1] !== undefined ? m[1].replace(/\\(.)/g, '$1') : (m[2] ?? m[3] ?? ''));
  return words;
}

const GLOBAL_VALUE_FLAGS = new Set(['-f', '--file', '-p', '--project-name', '--profile', '--env-file']);
const VALUE_FLAGS = new Set(['-e', '--env', '-u', '--user', '-w', '--workdir', '--index', '--scale', '-t', '--timeout', '--tail', '-n']);
/** Subcommands whose first argument is a service and the rest a command to run in it. */
const ONE_SERVICE = new Set(['exec', 'run']);
/** Subcommands whose arguments are all services. */
const SERVICES = new Set(['up', 'logs', 'build', 'start', 'stop', 'restart', 'ps', 'pull', 'rm', 'kill', 'create', 'top', 'pause', 'unpause']);
/** Subcommands that take no service. */
const NO_SERVICE = new Set(['down', 'config', 'ls', 'version']);

export interface ComposeCommand {
  subcommand: string;
  /** Every service the command names, `--scale SERVICE=N` included. */
  services: string[];
  /** What `exec` or `run` runs in the service, as words; empty otherwise. */
  command: string[];
}

/** Reads `docker compose [global flags] SUBCOMMAND [flags] [arguments]`, given without `docker compose`. */
export function composeCommand(words: readonly string[]): ComposeCommand {
  let i = 0;
  while (i < words.length && words[i]?.startsWith('-')) i += GLOBAL_VALUE_FLAGS.has(words[i] as string) ? 2 : 1;
  const subcommand = words[i++];
  if (subcommand === undefined || !(ONE_SERVICE.has(subcommand) || SERVICES.has(subcommand) || NO_SERVICE.has(subcommand))) {
    throw new Error(`not a docker compose subcommand this reader knows: ${String(subcommand)}`);
  }
  const services: string[] = [];
  const positionals: string[] = [];
  while (i < words.length) {
    const word = words[i] as string;
    // After exec's service, every word belongs to the command run inside.
    if (ONE_SERVICE.has(subcommand) && positionals.length > 0) {
      positionals.push(word);
      i += 1;
      continue;
    }
    if (word.startsWith('-')) {
      if (word === '--scale') services.push((words[i + 1] ?? '').split('=')[0] ?? '');
      i += VALUE_FLAGS.has(word) ? 2 : 1;
      continue;
    }
    positionals.push(word);
    i += 1;
  }
  if (NO_SERVICE.has(subcommand)) return { subcommand, services, command: [] };
  if (ONE_SERVICE.has(subcommand)) {
    const [service, ...command] = positionals;
    if (service === undefined) throw new Error(`docker compose ${subcommand} needs a service`);
    return { subcommand, services: [...services, service], command };
  }
  return { subcommand, services: [...services, ...positionals], command: [] };
}
