/**
 * The summary's sentence about MONEX, when the window has stored sessions: how many, the range of
 * prices traded, the last session's weighted average and the amount traded in all, each figure
 * from `MonexFacts` (what the central bank published), none estimated.
 */
import type { InsightLocale } from '../../../shared/types';
import type { MonexFacts } from './facts';
import { formatDate, formatMoney, formatNumber } from './format';

export function monexSentence(m: MonexFacts, locale: InsightLocale): string {
  const money = (v: number) => formatMoney(v, locale);
  const volume = formatNumber(m.volume, locale, { decimals: 2 });
  const unit = m.volumeUnit ? ` (${m.volumeUnit})` : '';
  const last = formatDate(m.lastDate, locale);
  if (locale === 'es') {
    const sesiones = m.sessions === 1 ? '1 sesión' : `${m.sessions} sesiones`;
    return `En MONEX hubo ${sesiones} en el periodo, con precios entre ${money(m.lowestMin)} y ${money(m.highestMax)}; el promedio ponderado de la última (${last}) fue ${money(m.lastAverage)}, y se negociaron ${volume} en total${unit}.`;
  }
  const sessions = m.sessions === 1 ? '1 session' : `${m.sessions} sessions`;
  return `MONEX held ${sessions} in the period, trading between ${money(m.lowestMin)} and ${money(m.highestMax)}; the last one (${last}) had a weighted average of ${money(m.lastAverage)}, and ${volume} was traded in all${unit}.`;
}
