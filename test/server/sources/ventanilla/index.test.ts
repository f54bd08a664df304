import { DEFAULT_UPSTREAM_URLS } from '../../../../server/config';
import { createVentanillaSource } from '../../../../server/sources/ventanilla';

describe('createVentanillaSource', () => {
  const base = { bccrApiUrl: DEFAULT_UPSTREAM_URLS.bccrApiUrl, bccrSiteApiUrl: DEFAULT_UPSTREAM_URLS.bccrSiteApiUrl, timeoutMs: 1000, retries: 0 };

  it('uses the token API when a token is set', () => {
    expect(createVentanillaSource({ ...base, bccrToken: 'abc' })).toMatchObject({ name: 'bccr-sdde', maxChunkDays: 366 });
  });

  it('uses the public site API without a token, or with a blank one', () => {
    expect(createVentanillaSource(base)).toMatchObject({ name: 'bccr-site', maxChunkDays: 31 });
    expect(createVentanillaSource({ ...base, bccrToken: '  ' }).name).toBe('bccr-site');
  });
});
