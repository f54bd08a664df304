import { Writable } from 'node:stream';
import pino from 'pino';
import type { Insights } from '../../../shared/types';
import { parseCompletion } from '../../../server/sources/llm';
import { UpstreamError } from '../../../server/sources/types';
import { rate, startTestApp, type TestApp } from '../../helpers/app';
import { CONTRARIAN_ANSWER, startFakeLlm, type FakeLlm } from './fake-llm';
import { falling } from './series';

const insights = (data: unknown) => data as Insights;
const completion = (content: string) => JSON.stringify({ choices: [{ message: { role: 'assistant', content } }] });

describe('parseCompletion', () => {
  const good = { summary: 'Un resumen suficientemente largo.', causes: ['Una causa probable con cifras.'] };

  it('reads the JSON the model wrote, fenced or not', () => {
    expect(parseCompletion(completion(JSON.stringify(good)))).toEqual(good);
    expect(parseCompletion(completion(`\`\`\`json\n${JSON.stringify(good)}\n\`\`\``))).toEqual(good);
  });

  it.each([
    ['a body that is not JSON', '<html>502 Bad Gateway</html>'],
    ['a body without choices', JSON.stringify({ error: 'nope' })],
    ['content that is not JSON', completion('El colón se apreció.')],
    ['a summary too short', completion(JSON.stringify({ ...good, summary: 'Corto.' }))],
    ['a summary too long', completion(JSON.stringify({ ...good, summary: 'x'.repeat(1201) }))],
    ['no causes', completion(JSON.stringify({ ...good, causes: [] }))],
    ['six causes', completion(JSON.stringify({ ...good, causes: Array(6).fill('Una causa probable.') }))],
    ['a cause too short', completion(JSON.stringify({ ...good, causes: ['Corta.'] }))],
    ['causes that are not strings', completion(JSON.stringify({ ...good, causes: [42] }))],
  ])('refuses %s with a parse UpstreamError', (_, body) => {
    let error: unknown;
    try {
      parseCompletion(body);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(UpstreamError);
    expect((error as UpstreamError).kind).toBe('parse');
    expect((error as UpstreamError).source).toBe('llm');
  });
});

describe('GET /insights with a language model', () => {
  const MODEL = 'fake-model-1';
  const API_KEY = 'sk-test-secret';
  // Generous for a loaded test machine, far below the slow answer's delay.
  const TIMEOUT_MS = 2000;
  const clock = () => new Date('2025-01-30T18:00:00Z');
  let llm: FakeLlm;
  let t: TestApp;
  const logs: string[] = [];
  const logger = pino(
    { level: 'warn' },
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        logs.push(chunk.toString('utf8'));
        done();
      },
    }),
  );
  const settings = () => ({ baseUrl: llm.baseUrl, apiKey: API_KEY, model: MODEL, timeoutMs: TIMEOUT_MS });

  beforeAll(async () => {
    llm = await startFakeLlm({ kind: 'answer', content: CONTRARIAN_ANSWER, delayMs: 300 });
    t = await startTestApp({ clock, llm: settings(), logger });
    await t.seed(falling().map((p) => rate(p.date, p.buy, p.sell)));
  });
  afterAll(async () => {
    await t.close();
    await llm.close();
  });

  describe('a good answer', () => {
    let first: Insights;
    beforeAll(async () => {
      // Five identical requests at once share one generation.
      const answers = await Promise.all(Array.from({ length: 5 }, () => t.get('/insights?days=30&locale=es')));
      for (const a of answers) expect(a.status).toBe(200);
      first = insights(answers[0].body.data);
      for (const a of answers) expect(insights(a.body.data)).toEqual(first);
    });

    it('is used as summary and causes, with the model’s name', () => {
      expect(first.generatedBy).toBe(MODEL);
      expect(first.summary).toBe(CONTRARIAN_ANSWER.summary);
      expect(first.causes).toEqual(CONTRARIAN_ANSWER.causes);
    });

    it('never decides the verdict: the metrics do, whatever the text claims', () => {
      expect(first.summary).toContain('se depreció');
      expect(first.verdict).toBe('appreciation');
      expect(first.metrics.sell.changePercent).toBe(-1.394);
      expect(first).not.toHaveProperty('verdict', CONTRARIAN_ANSWER.verdict);
    });

    it('was asked once, in the chat-completions format, with the key in the header', () => {
      expect(llm.requests).toHaveLength(1);
      const [request] = llm.requests;
      expect(request.method).toBe('POST');
      expect(request.path).toBe('/v1/chat/completions');
      expect(request.headers.authorization).toBe(`Bearer ${API_KEY}`);
      expect(request.headers['content-type']).toMatch(/^application\/json/);
      expect(request.body.model).toBe(MODEL);
      expect(request.body.response_format).toEqual({ type: 'json_object' });
      expect(request.body.temperature).toBeLessThanOrEqual(0.3);
      expect(request.body.messages.map((m) => m.role)).toEqual(['system', 'user']);
      const system = request.body.messages[0].content;
      expect(system).toMatch(/ONLY/);
      expect(system).toMatch(/Never invent/i);
      expect(system).toContain('Spanish');
      expect(system).toContain('"summary"');
      // The key travels only in the header.
      expect(JSON.stringify(request.body)).not.toContain(API_KEY);
    });

    it('received the computed metrics and nothing else: no raw series', () => {
      const facts = JSON.parse(llm.requests[0].body.messages[1].content) as Record<string, unknown>;
      expect(Object.keys(facts).sort()).toEqual([
        'biggestMoves',
        'days',
        'institutions',
        'metrics',
        'monex',
        'spanDays',
        'spread',
        'verdict',
        'verdictThresholdPercent',
        'volatility',
      ]);
      expect(facts.metrics).toEqual(first.metrics);
      expect(facts.verdict).toBe('appreciation');
      // The line the verdict was read against, so that the model can say why a change is (not) a move.
      expect(facts.verdictThresholdPercent).toBe(0.25);
      expect((facts.biggestMoves as unknown[]).length).toBeLessThanOrEqual(3);
      // The series has 30 days; only a handful of dates (extremes, moves) may appear.
      const text = llm.requests[0].body.messages[1].content;
      const dates = new Set(text.match(/\d{4}-\d{2}-\d{2}/g));
      expect(dates.size).toBeLessThanOrEqual(8);
      expect(text).not.toContain('2025-01-15');
      // No array of 30 values anywhere.
      const arrays: unknown[][] = [];
      JSON.parse(text, (_, value: unknown) => {
        if (Array.isArray(value)) arrays.push(value);
        return value;
      });
      expect(Math.max(...arrays.map((a) => a.length))).toBeLessThanOrEqual(3);
    });

    it('is not asked again for the same window, language and day, not even by a fresh instance', async () => {
      const again = insights((await t.get('/insights?days=30&locale=es')).body.data);
      expect(again).toEqual(first);
      const other = await startTestApp({ clock, llm: settings(), database: t.database });
      try {
        const fromOther = insights((await other.get('/insights?days=30&locale=es')).body.data);
        expect(fromOther.generatedBy).toBe(MODEL);
        expect(fromOther.summary).toBe(first.summary);
        expect(fromOther.generatedAt).toBe(first.generatedAt);
      } finally {
        await other.close();
      }
      expect(llm.requests).toHaveLength(1);
    });

    it('is asked again for another language, in that language', async () => {
      const en = insights((await t.get('/insights?days=30&locale=en')).body.data);
      expect(en.generatedBy).toBe(MODEL);
      expect(en.locale).toBe('en');
      expect(llm.requests).toHaveLength(2);
      expect(llm.requests[1].body.messages[0].content).toContain('English');
    });
  });

  // Each failure uses its own window length, so that nothing cached hides the model's answer.
  describe.each([
    ['an answer that is not JSON', 20, { kind: 'raw-content', content: 'El colón se depreció, sin JSON.' } as const],
    ['JSON of the wrong shape', 21, { kind: 'answer', content: { resumen: 'otra forma', causas: 'ninguna' } } as const],
    ['a summary out of bounds', 22, { kind: 'answer', content: { summary: 'Corto.', causes: ['Una causa suficientemente larga.'] } } as const],
    ['an answer past the timeout', 23, { kind: 'slow', delayMs: 8000, content: CONTRARIAN_ANSWER } as const],
    ['a 500', 24, { kind: 'status', status: 500 } as const],
    ['a 401', 25, { kind: 'status', status: 401 } as const],
  ])('%s', (_, days, behaviour) => {
    let answer: { status: number; data: Insights };
    let asked: number;
    beforeAll(async () => {
      llm.behave(behaviour);
      asked = llm.requests.length;
      const { status, body } = await t.get(`/insights?days=${days}`);
      answer = { status, data: insights(body.data) };
    });

    it('still answers 200 with the statistical text and the verdict from the metrics', () => {
      expect(llm.requests.length).toBe(asked + 1);
      expect(answer.status).toBe(200);
      expect(answer.data.generatedBy).toBe('statistical');
      expect(answer.data.verdict).toBe('appreciation');
      expect(answer.data.summary).toContain(`${days} días`);
      expect(answer.data.summary).not.toContain('se depreció');
      expect(answer.data.causes.length).toBeGreaterThanOrEqual(2);
    });
  });

  it('logs each failure as a warning, without the key', () => {
    const warnings = logs.map((line) => JSON.parse(line) as { level: number; msg: string; err?: { message: string } });
    const failures = warnings.filter((w) => w.msg.startsWith('insights: the language model failed'));
    expect(failures.length).toBeGreaterThanOrEqual(6);
    for (const w of failures) expect(w.level).toBe(40);
    expect(failures.map((w) => w.err?.message).join('\n')).toMatch(/within 2000 ms/);
    expect(logs.join('\n')).not.toContain(API_KEY);
  });

  describe('after a failure', () => {
    it('keeps the statistical text for a short while, then asks the model again', async () => {
      llm.behave({ kind: 'status', status: 503 });
      const before = llm.requests.length;
      const failed = insights((await t.get('/insights?days=40&locale=en')).body.data);
      expect(failed.generatedBy).toBe('statistical');
      expect(llm.requests.length).toBe(before + 1);

      // The model is back, but within the retry time a fresh instance serves the kept fallback.
      llm.behave({ kind: 'answer', content: CONTRARIAN_ANSWER });
      const soon = await startTestApp({ clock: () => new Date(clock().getTime() + 5 * 60_000), llm: settings(), database: t.database });
      try {
        expect(insights((await soon.get('/insights?days=40&locale=en')).body.data).generatedBy).toBe('statistical');
      } finally {
        await soon.close();
      }
      expect(llm.requests.length).toBe(before + 1);

      // Past it, the model is asked again and its text is kept from then on.
      const later = await startTestApp({ clock: () => new Date(clock().getTime() + 11 * 60_000), llm: settings(), database: t.database });
      try {
        const recovered = insights((await later.get('/insights?days=40&locale=en')).body.data);
        expect(recovered.generatedBy).toBe(MODEL);
        expect(recovered.verdict).toBe('appreciation');
      } finally {
        await later.close();
      }
      expect(llm.requests.length).toBe(before + 2);
    });
  });
});
