/**
 * The optional language model behind `/insights`: an OpenAI-compatible chat-completions endpoint
 * (`POST {baseUrl}/chat/completions`). Like every adapter it is a request plus a pure parse.
 *
 * The model is given the computed facts and nothing else (no series, no news), told to stay
 * within them, and asked for JSON that is then validated strictly. It is tried once with a short
 * timeout and never retried: the statistical text is always ready as the answer, and a user
 * should not wait for a second attempt. Every failure is one `UpstreamError` with source `llm`.
 */
import { z } from 'zod';
import type { InsightLocale } from '../../shared/types';
import type { Facts } from '../domain/insights/facts';
import type { InsightText } from '../domain/insights/text';
import { joinUrl, type FetchLike } from './http';
import { parseError, UpstreamError } from './types';

const SOURCE = 'llm';

export interface LlmSettings {
  baseUrl: string;
  apiKey: string;
  model: string;
  /** How long one answer may take; 8 s by default. */
  timeoutMs?: number;
}

export const DEFAULT_LLM_TIMEOUT_MS = 8_000;
/** Low but not zero: the wording may vary a little, the figures must not. */
const TEMPERATURE = 0.2;

const LANGUAGES: Record<InsightLocale, string> = { es: 'Spanish', en: 'English' };

const NUMBER_STYLE: Record<InsightLocale, string> = {
  es: 'Write numbers the Costa Rican Spanish way: decimal comma, the ₡ sign for colones (₡512,82), a space before % (−1,4 %), dates like "15 de enero de 2025".',
  en: 'Write numbers the English way: decimal point, the ₡ sign for colones (₡512.82), no space before % (−1.4%), dates like "January 15, 2025".',
};

/** The instructions. Every rule here guards against one way a model could mislead a reader. */
export function systemPrompt(locale: InsightLocale): string {
  return [
    'You are an analyst writing a short summary of the official USD/CRC exchange rate of the Banco Central de Costa Rica (colones per US dollar) over one window of days.',
    'Base everything ONLY on the metrics in the user message: a JSON object computed from the official series. Do not use any other knowledge about the period.',
    "Fields: days = the window asked for and spanDays = the calendar days the data covers; metrics.sell and metrics.buy = statistics of each side (CRC per USD; changePercent in percent; volatility = sample standard deviation of the daily percentage changes; slopePerDay = least-squares CRC per day); volatility.level = low, moderate or high; biggestMoves = the largest daily changes of the sell rate; spread = the official sell minus buy in CRC, on average and in the first and last week; institutions = how far apart the banks' and exchange houses' sell quotes were on one day (null when unknown).",
    'Never invent or mention news, events, announcements, policy decisions, people, institutions or figures that are not in the metrics. Do not predict future rates.',
    'The verdict field is final: appreciation means fewer colones per dollar (a stronger colón), depreciation more colones per dollar, stable neither. Never contradict it.',
    'Quote the real figures from the metrics, rounded for people (money to 2 decimals, percentages to 1 or 2), with their dates where they have one.',
    'Causes are probable explanations of the figures through general market mechanisms (supply and demand of dollars, exports, tourism, foreign investment, imports, liquidity, the buy-sell spread, dispersion between institutions), each phrased as a probability and tied to a number from the metrics.',
    `Write in ${LANGUAGES[locale]}. ${NUMBER_STYLE[locale]}`,
    'Answer with a single JSON object and nothing else: {"summary": string, "causes": string[]}. The summary is 2 to 5 sentences; give 2 to 4 causes of one or two sentences each.',
  ].join('\n');
}

/** The request body: the facts are the only data the model sees. */
export function chatRequest(model: string, facts: Facts, locale: InsightLocale) {
  return {
    model,
    temperature: TEMPERATURE,
    response_format: { type: 'json_object' as const },
    messages: [
      { role: 'system' as const, content: systemPrompt(locale) },
      { role: 'user' as const, content: JSON.stringify(facts) },
    ],
  };
}

const CompletionSchema = z.object({
  choices: z.array(z.object({ message: z.object({ content: z.string() }) })).min(1),
});

const InsightTextSchema = z.object({
  summary: z.string().trim().min(20).max(1200),
  causes: z.array(z.string().trim().min(10).max(400)).min(1).max(5),
});

/** Some models wrap JSON in a Markdown fence even when asked for a JSON object. */
function unfence(content: string): string {
  const m = /^\s*```(?:json)?\s*([\s\S]*?)\s*```\s*$/i.exec(content);
  return m ? m[1] : content;
}

function json(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw parseError(SOURCE, `${what} is not JSON`);
  }
}

function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`)
    .join('; ');
}

/** The model's answer from a chat-completions body, or a parse `UpstreamError` saying what is wrong. */
export function parseCompletion(body: string): InsightText {
  const completion = CompletionSchema.safeParse(json(body, 'the chat-completions answer'));
  if (!completion.success) throw parseError(SOURCE, `unexpected chat-completions answer (${describeIssues(completion.error)})`);
  const content = completion.data.choices[0].message.content;
  const text = InsightTextSchema.safeParse(json(unfence(content), "the model's message"));
  if (!text.success) throw parseError(SOURCE, `the model's JSON has the wrong shape (${describeIssues(text.error)})`);
  return text.data;
}

export interface LlmClient {
  readonly model: string;
  write(facts: Facts, locale: InsightLocale): Promise<InsightText>;
}

export function createLlmClient(settings: LlmSettings, fetchImpl: FetchLike = fetch): LlmClient {
  const url = joinUrl(settings.baseUrl, '/chat/completions');
  const timeoutMs = settings.timeoutMs ?? DEFAULT_LLM_TIMEOUT_MS;
  return {
    model: settings.model,
    async write(facts, locale) {
      let status: number;
      let text: string;
      try {
        const res = await fetchImpl(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${settings.apiKey}` },
          body: JSON.stringify(chatRequest(settings.model, facts, locale)),
          // One signal for the headers and the body: a model that starts answering and stalls times out too.
          signal: AbortSignal.timeout(timeoutMs),
        });
        status = res.status;
        text = await res.text();
      } catch (error) {
        const name = (error as { name?: unknown } | null)?.name;
        if (name === 'TimeoutError') {
          throw new UpstreamError(`${SOURCE}: no answer from ${url} within ${timeoutMs} ms`, {
            source: SOURCE,
            kind: 'timeout',
            retryable: true,
            cause: error,
          });
        }
        throw new UpstreamError(`${SOURCE}: network error on ${url}: ${(error as Error)?.message ?? String(error)}`, {
          source: SOURCE,
          kind: 'network',
          retryable: true,
          cause: error,
        });
      }
      if (status < 200 || status > 299) {
        // The body of an error may echo the request; only its size is worth a log line.
        throw new UpstreamError(`${SOURCE}: HTTP ${status} from ${url} (${text.length} bytes)`, {
          source: SOURCE,
          kind: 'http',
          status,
          retryable: status === 408 || status === 429 || status >= 500,
        });
      }
      return parseCompletion(text);
    },
  };
}
