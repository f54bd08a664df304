import { DEFAULT_UPSTREAM_URLS } from '../../../server/config';
import { createOfficialSources } from '../../../server/sources';

describe('createOfficialSources', () => {
  const base = { ...DEFAULT_UPSTREAM_URLS, timeoutMs: 1000, retries: 0 };

  it('uses the token API as primary when a token is set', () => {
    const { primary, fallback } = createOfficialSources({ ...base, bccrToken: 'abc' });
    expect([primary.name, primary.provider, primary.maxChunkDays]).toEqual(['bccr-sdde', 'BCCR', 366]);
    expect([fallback.name, fallback.provider]).toEqual(['hacienda', 'Hacienda']);
  });

  it('uses the public site API without a token, or with a blank one', () => {
    expect(createOfficialSources(base).primary.name).toBe('bccr-site');
    expect(createOfficialSources({ ...base, bccrToken: '  ' }).primary.name).toBe('bccr-site');
  });
});
