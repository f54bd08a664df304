/**
 * The README's "With containers" section, run as written, as far as it can be without a container
 * engine: compose.yaml read as `docker compose config` reads it (a YAML parse and interpolation
 * from an empty shell), the server's own configuration loaded from what the api container gets,
 * and every command of the section checked against the services and files it names.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { loadConfig } from '../../server/config';
import { readKeysRequest } from '../../server/cli/keys-arguments';
import { buildEntries } from '../helpers/build-entries';
import { composeCommand, interpolate, portOf, shellWords } from '../helpers/compose';

const ROOT = path.resolve(__dirname, '../..');
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');

interface Service {
  build?: unknown;
  image?: string;
  ports?: unknown[];
  environment?: Record<string, string | number | boolean | null> | string[];
  depends_on?: Record<string, { condition?: string }> | string[];
  healthcheck?: { test?: unknown };
  volumes?: string[];
}

const compose = parse(read('compose.yaml')) as { services: Record<string, Service>; volumes?: Record<string, unknown> };
const services = compose.services;
const serviceNames = Object.keys(services);

/** A service's environment as Compose hands it over, `${…}` resolved from `shell`. */
function environmentOf(name: string, shell: Record<string, string | undefined> = {}): Record<string, string> {
  const raw = services[name]?.environment ?? {};
  const pairs = Array.isArray(raw) ? raw.map((line) => line.split(/=(.*)/s).slice(0, 2) as [string, string]) : Object.entries(raw);
  return Object.fromEntries(pairs.map(([key, value]) => [key, interpolate(value === null ? '' : String(value), shell)]));
}

/** The `ENV` of the Dockerfile's last stage, the one the container runs. */
function imageEnvironment(): Record<string, string> {
  const stages = read('Dockerfile').split(/^FROM /m);
  const last = stages.at(-1) ?? '';
  const env: Record<string, string> = {};
  for (const line of last.split('\n').filter((l) => l.startsWith('ENV '))) {
    for (const pair of line.slice(4).trim().split(/\s+/)) {
      const [key, value] = pair.split(/=(.*)/s);
      if (key) env[key] = value ?? '';
    }
  }
  return env;
}

/** From the "### With containers" heading to the next heading. */
function readmeSection(): string {
  const readme = read('README.md');
  const start = readme.indexOf('### With containers');
  if (start < 0) throw new Error('README.md has no "### With containers" section');
  const rest = readme.slice(readme.indexOf('\n', start) + 1);
  const end = rest.search(/^#{2,3} /m);
  return end < 0 ? rest : rest.slice(0, end);
}

const section = readmeSection();
const codeLines = [...section.matchAll(/```sh\n([\s\S]*?)```/g)].flatMap((m) => (m[1] ?? '').split('\n')).filter((l) => l.trim() !== '');

describe('compose.yaml', () => {
  it('publishes the api on port 3000 of the host, to the port the server listens on inside', () => {
    const ports = (services.api?.ports ?? []).map(portOf);
    expect(ports).toEqual([{ published: 3000, target: 3000 }]);
    const config = loadConfig({ ...imageEnvironment(), ...environmentOf('api') });
    expect(config.port).toBe(3000);
    expect(read('Dockerfile')).toMatch(/^EXPOSE 3000$/m);
  });

  it('gives the api a configuration the server accepts, pointing at the services beside it', () => {
    const config = loadConfig({ ...imageEnvironment(), ...environmentOf('api') });
    const database = new URL(config.databaseUrl ?? '');
    const postgres = environmentOf('postgres');
    expect({ host: database.hostname, user: database.username, password: database.password, db: database.pathname.slice(1) }).toEqual({
      host: 'postgres',
      user: postgres.POSTGRES_USER,
      password: postgres.POSTGRES_PASSWORD,
      db: postgres.POSTGRES_DB,
    });
    expect(serviceNames).toContain(new URL(config.redisUrl ?? '').hostname);
    // Unset in the shell, the optional settings keep the server's defaults.
    expect({
      bccrToken: config.bccrToken,
      metricsToken: config.metricsToken,
      publicUrl: config.publicUrl,
      trustProxy: config.trustProxy,
      logLevel: config.logLevel,
    }).toEqual({
      bccrToken: null,
      metricsToken: null,
      publicUrl: 'http://localhost:3000',
      trustProxy: 0,
      logLevel: 'info',
    });
    // Set in the shell, they reach the server.
    const shell = {
      BCCR_TOKEN: 'sdde-token',
      METRICS_TOKEN: 'long-random',
      PUBLIC_URL: 'https://rates.example.com',
      CONTACT_EMAIL: 'help@rates.example.com',
      ADDON_TEMPLATE_URL: 'https://docs.google.com/spreadsheets/d/abc/copy',
      TRUST_PROXY: 'true',
      LOG_LEVEL: 'debug',
    };
    const set = loadConfig({ ...imageEnvironment(), ...environmentOf('api', shell) });
    expect({ bccrToken: set.bccrToken, metricsToken: set.metricsToken, publicUrl: set.publicUrl, trustProxy: set.trustProxy, logLevel: set.logLevel }).toEqual({
      bccrToken: 'sdde-token',
      metricsToken: 'long-random',
      publicUrl: 'https://rates.example.com',
      trustProxy: 1,
      logLevel: 'debug',
    });
    expect(set.publishing).toEqual({
      contactEmail: 'help@rates.example.com',
      addonListingUrl: null,
      addonTemplateUrl: 'https://docs.google.com/spreadsheets/d/abc/copy',
    });
  });

  it('runs the server with the allocator arenas `npm start` gives it', () => {
    const { scripts } = JSON.parse(read('package.json')) as { scripts: Record<string, string> };
    const npmStart = /^MALLOC_ARENA_MAX=\$\{MALLOC_ARENA_MAX:-(\d+)\} /.exec(scripts.start ?? '')?.[1];
    expect(npmStart).toBeDefined();
    expect(imageEnvironment().MALLOC_ARENA_MAX).toBe(npmStart);
  });

  it('sets only variables the server reads', () => {
    const source = read('server/config.ts');
    for (const name of Object.keys(environmentOf('api'))) expect({ name, read: source.includes(`'${name}'`) }).toEqual({ name, read: true });
  });

  it('starts the api after services that exist and report their health, with declared volumes', () => {
    const dependsOn = services.api?.depends_on ?? {};
    const conditions: Record<string, { condition?: string }> = Array.isArray(dependsOn) ? Object.fromEntries(dependsOn.map((s) => [s, {}])) : dependsOn;
    expect(Object.keys(conditions).sort()).toEqual(['postgres', 'redis']);
    for (const [name, { condition }] of Object.entries(conditions)) {
      expect(serviceNames).toContain(name);
      if (condition === 'service_healthy') expect(services[name]?.healthcheck?.test).toBeDefined();
    }
    for (const service of Object.values(services)) {
      for (const volume of service.volumes ?? []) {
        const source = volume.split(':')[0] ?? '';
        if (!source.startsWith('.') && !source.startsWith('/')) expect(Object.keys(compose.volumes ?? {})).toContain(source);
      }
    }
  });
});

describe('the README’s "With containers" section', () => {
  it('mentions only environment variables that compose.yaml sets', () => {
    const mentioned = [...new Set(section.match(/\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b/g) ?? [])].sort();
    expect(mentioned).toEqual(expect.arrayContaining(['DATABASE_URL', 'REDIS_URL']));
    const set = serviceNames.flatMap((name) => Object.keys(environmentOf(name)));
    for (const name of mentioned) expect({ name, inComposeYaml: set.includes(name) }).toEqual({ name, inComposeYaml: true });
  });

  it('gives commands that name existing services, published ports and files the image has', () => {
    const compose = codeLines.filter((l) => l.startsWith('docker compose '));
    const curls = codeLines.filter((l) => l.startsWith('curl '));
    // Every line of the block is one of the two, so none goes unchecked.
    expect(compose.length + curls.length).toBe(codeLines.length);
    expect(compose.map((l) => composeCommand(shellWords(l).slice(2)).subcommand)).toEqual(['up', 'exec', 'logs']);

    const entries = Object.keys(buildEntries());
    for (const line of compose) {
      const { services: named, command } = composeCommand(shellWords(line).slice(2));
      for (const name of named) expect({ line, name, exists: serviceNames.includes(name) }).toEqual({ line, name, exists: true });
      if (command.length === 0) continue;
      // `node dist/NAME.js …`: a file the build writes into the image, with arguments it accepts.
      const [program, file, ...args] = command;
      const entry = /^dist\/(\w+)\.js$/.exec(file ?? '')?.[1];
      expect({ line, program, entry: entry !== undefined && entries.includes(entry) }).toEqual({ line, program: 'node', entry: true });
      if (entry === 'keys') expect(readKeysRequest(args).command).toBe(args[0]);
    }

    const published = Object.values(services).flatMap((s) => (s.ports ?? []).map(portOf).map((p) => p.published));
    for (const line of curls) {
      const url = new URL(shellWords(line).find((w) => /^https?:\/\//.test(w)) ?? '');
      expect({ line, host: url.hostname, published: published.includes(Number(url.port)) }).toEqual({ line, host: 'localhost', published: true });
    }
  });
});

describe('the compose reading itself', () => {
  it('reads ports, interpolation and command lines as Compose does', () => {
    expect(['3000', '3000:3000', '127.0.0.1:8080:3000/tcp', { target: 3000, published: '80' }].map(portOf)).toEqual([
      { published: null, target: 3000 },
      { published: 3000, target: 3000 },
      { published: 8080, target: 3000 },
      { published: 80, target: 3000 },
    ]);
    const shell = { SET: 'x', EMPTY: '' };
    // biome-ignore lint/suspicious/noTemplateCurlyInString: Compose's own ${…} syntax, as compose.yaml holds it
    const values = ['${SET:-d}', '${EMPTY:-d}', '${EMPTY-d}', '${UNSET-d}', '${UNSET}', '$SET/$$SET'];
    expect(values.map((v) => interpolate(v, shell))).toEqual(['x', 'd', '', 'd', '', 'x/$SET']);
    // biome-ignore lint/suspicious/noTemplateCurlyInString: Compose's own ${…} syntax
    expect(() => interpolate('${UNSET:?needed}', shell)).toThrow('UNSET: needed');
    expect(composeCommand(shellWords('-f compose.yaml up --build -d --scale api=3'))).toEqual({ subcommand: 'up', services: ['api'], command: [] });
    expect(composeCommand(shellWords('exec -T api node dist/keys.js create --name "My app"'))).toEqual({
      subcommand: 'exec',
      services: ['api'],
      command: ['node', 'dist/keys.js', 'create', '--name', 'My app'],
    });
    expect(composeCommand(shellWords('logs -f --tail 10 api redis'))).toEqual({ subcommand: 'logs', services: ['api', 'redis'], command: [] });
    expect(() => composeCommand(['launch', 'api'])).toThrow(/launch/);
  });
});
