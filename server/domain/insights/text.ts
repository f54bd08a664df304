/**
 * The statistical insight: a summary and probable causes written from the facts alone, in
 * Spanish or English. It is the answer when no language model is configured and the fallback
 * when the model fails, so it must read well on its own.
 *
 * Every figure quoted comes from `Facts`; the causes are phrased as probabilities ("suele",
 * "probablemente", "usually", "probably") and name only general market mechanisms, never an
 * event, a date or a piece of news that the data does not hold. Which direction a sentence may
 * claim is decided once, in reading.ts, from the verdict and both sides' trends together: a
 * cause never calls a window's move supply or demand winning while a trend of the same window
 * points the other way.
 */
import type { InsightLocale } from '../../../shared/types';
import type { Facts } from './facts';
import { figures } from './figures';
import type { Phrasebook } from './phrasebook';
import { read } from './reading';
import { english } from './text-en';
import { spanish } from './text-es';
import { monexSentence } from './text-monex';

export interface InsightText {
  summary: string;
  causes: string[];
}

const PHRASEBOOKS: Record<InsightLocale, Phrasebook> = { es: spanish, en: english };

/** Summary and 2 to 4 probable causes, in Spanish unless told otherwise. */
export function statisticalInsight(facts: Facts, locale: InsightLocale = 'es'): InsightText {
  const book = PHRASEBOOKS[locale];
  const reading = read(facts);
  const f = figures(facts, locale);
  const causes = [
    book.mainCause(facts, reading, f),
    book.movesCause(facts, reading, f),
    book.spreadCause(facts, reading, f),
    book.institutionsCause(facts, reading, f),
  ].filter((c): c is string => c !== null);
  // MONEX only where sessions of the window are stored: a sentence of figures, never a guess.
  const summary = [...book.summary(facts, reading, f), ...(facts.monex ? [monexSentence(facts.monex, locale)] : [])];
  return { summary: summary.join(' '), causes: causes.slice(0, 4) };
}
