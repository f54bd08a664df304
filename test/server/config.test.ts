import { ConfigError, DEFAULT_SYNC_CRON, loadConfig } from '../../server/config';

describe('loadConfig', () => {
  it('gives the documented defaults on an empty environment', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      databaseUrl: null,
      redisUrl: null,
      bccrToken: null,
      bccrApiUrl: 'https://apim.bccr.fi.cr/SDDE/api/Bccr.GE.SDDE.Publico.Indicadores.API',
      bccrSiteApiUrl: 'https://apim.bccr.fi.cr/SDDE/api',
      haciendaUrl: 'https://api.hacienda.go.cr',
      syncCron: DEFAULT_SYNC_CRON,
      corsOrigins: ['*'],
      llm: null,
      logLevel: 'info',
      trustProxy: 0,
      publicUrl: 'http://localhost:3000',
      publishing: { contactEmail: null, addonListingUrl: null, addonTemplateUrl: null },
    });
    expect(config.dataDir.endsWith('/data')).toBe(true);
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('reads every variable', () => {
    const config = loadConfig({
      PORT: '8080',
      DATABASE_URL: 'postgres://u@db:5432/rates',
      REDIS_URL: 'redis://cache:6379',
      SYNC_CRON: 'off',
      CORS_ORIGINS: 'https://a.example, https://b.example',
      LLM_BASE_URL: 'https://llm.example/v1/',
      LLM_API_KEY: 'secret',
      LLM_MODEL: 'small',
      LOG_LEVEL: 'DEBUG',
      TRUST_PROXY: 'true',
      PUBLIC_URL: 'https://rates.example.com/',
      CONTACT_EMAIL: 'privacy@rates.example.com',
      ADDON_LISTING_URL: 'https://workspace.google.com/marketplace/app/crc_rates/123',
      ADDON_TEMPLATE_URL: 'https://docs.google.com/spreadsheets/d/abc/copy',
    });
    expect(config).toMatchObject({
      port: 8080,
      databaseUrl: 'postgres://u@db:5432/rates',
      syncCron: null,
      corsOrigins: ['https://a.example', 'https://b.example'],
      llm: { baseUrl: 'https://llm.example/v1', apiKey: 'secret', model: 'small' },
      logLevel: 'debug',
      trustProxy: 1,
      publicUrl: 'https://rates.example.com',
      publishing: {
        contactEmail: 'privacy@rates.example.com',
        addonListingUrl: 'https://workspace.google.com/marketplace/app/crc_rates/123',
        addonTemplateUrl: 'https://docs.google.com/spreadsheets/d/abc/copy',
      },
    });
  });

  it('reads the webhook variables: two flags off by default, and a sealing key of at least 32 characters', () => {
    expect(loadConfig({}).webhooks).toEqual({ allowHttp: false, allowPrivate: false, secretKey: null, leaseSeconds: 60 });
    expect(loadConfig({ WEBHOOK_ALLOW_HTTP: 'TRUE', WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_SECRET_KEY: 'k'.repeat(32) }).webhooks).toEqual({
      allowHttp: true,
      allowPrivate: true,
      secretKey: 'k'.repeat(32),
      leaseSeconds: 60,
    });
    expect(loadConfig({ WEBHOOK_LEASE_SECONDS: '12' }).webhooks.leaseSeconds).toBe(12);
    for (const bad of ['11', '3601', '1.5', 'soon'])
      expect(() => loadConfig({ WEBHOOK_LEASE_SECONDS: bad })).toThrow(/WEBHOOK_LEASE_SECONDS must be a whole number of seconds from 12 to 3600/);
    expect(() => loadConfig({ WEBHOOK_ALLOW_HTTP: 'yes' })).toThrow(/WEBHOOK_ALLOW_HTTP must be true or false/);
    expect(() => loadConfig({ WEBHOOK_SECRET_KEY: 'short' })).toThrow(/WEBHOOK_SECRET_KEY must be at least 32 characters/);
  });

  it('takes TRUST_PROXY as false, true (one proxy) or a number of proxies', () => {
    expect(['false', '0', 'true', '1', '2', 'TRUE'].map((TRUST_PROXY) => loadConfig({ TRUST_PROXY }).trustProxy)).toEqual([0, 0, 1, 1, 2, 1]);
  });

  it.each([
    ['PORT', { PORT: 'eighty' }],
    ['CONTACT_EMAIL', { CONTACT_EMAIL: 'Ana <ana@example.com>' }],
    ['ADDON_LISTING_URL', { ADDON_LISTING_URL: 'http://workspace.google.com/x' }],
    ['ADDON_TEMPLATE_URL', { ADDON_TEMPLATE_URL: 'docs.google.com/spreadsheets/d/abc/copy' }],
    ['PORT', { PORT: '70000' }],
    ['DATABASE_URL', { DATABASE_URL: 'mysql://x/y' }],
    ['REDIS_URL', { REDIS_URL: 'not a url' }],
    ['BCCR_API_URL', { BCCR_API_URL: 'ftp://x' }],
    ['SYNC_CRON', { SYNC_CRON: 'every day' }],
    ['CORS_ORIGINS', { CORS_ORIGINS: 'example.com' }],
    ['LLM_BASE_URL', { LLM_MODEL: 'only-this' }],
    ['LOG_LEVEL', { LOG_LEVEL: 'loud' }],
    ['TRUST_PROXY', { TRUST_PROXY: 'maybe' }],
    ['TRUST_PROXY', { TRUST_PROXY: '-1' }],
    ['TRUST_PROXY', { TRUST_PROXY: '1.5' }],
    ['PUBLIC_URL', { PUBLIC_URL: 'rates.example.com' }],
    ['MONEX_SINCE', { MONEX_SINCE: '2005-12-31' }],
    ['MONEX_SINCE', { MONEX_SINCE: '2026-02-30' }],
  ])('stops with a message naming %s', (variable, env) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(variable);
  });
});

describe('MONEX_SINCE', () => {
  it('defaults to 2006-01-01, when MONEX began, and takes a later day', () => {
    expect(loadConfig({}).monexSince).toBe('2006-01-01');
    expect(loadConfig({ MONEX_SINCE: '2020-06-01' }).monexSince).toBe('2020-06-01');
  });
});
