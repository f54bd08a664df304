/**
 * What a purpose (shared/purposes.ts) puts in an answer: the citation of its rule, and the day a
 * month close applies it to. Pure: the table is the data, these are the only readings of it.
 */
import { purposeOf, type Purpose, type PurposeId } from '../../shared/purposes';
import type { PurposeCitation, PurposeInfo } from '../../shared/types';
import { monthBounds } from './month-close';

/** The rule as an answer cites it: which side, the rule, its basis, and that it is not advice. */
export function citationOf(purpose: Purpose): PurposeCitation {
  return { id: purpose.id, side: purpose.side, rule: { ...purpose.rule }, basis: purpose.basis, note: { ...purpose.note } };
}

/** The entry as /purposes lists it. */
export function purposeInfo(purpose: Purpose): PurposeInfo {
  return {
    id: purpose.id,
    aliases: [...purpose.aliases],
    side: purpose.side,
    day: { ...purpose.day },
    close: purpose.close,
    rule: { ...purpose.rule },
    basis: purpose.basis,
    note: { ...purpose.note },
  };
}

/**
 * The day a month close applies the rule to: the month's last calendar day, or, for a rule that
 * settles at the fiscal close, December 31 of the month's year: the fiscal year is the calendar
 * year, as the rule reads today (fiscal periods that closed on another day in the past are not
 * modelled; the answer names the day it used).
 */
export function closeDayOf(purpose: Purpose, month: string): string {
  if (purpose.close === 'fiscal-year-end') return `${month.slice(0, 4)}-12-31`;
  return monthBounds(month).last;
}

/** The answer with the citation of the purpose's rule added, or the answer itself without a purpose. */
export function withPurpose<T extends object>(answer: T, id: PurposeId | undefined): T & { purpose?: PurposeCitation } {
  return id ? { ...answer, purpose: citationOf(purposeOf(id)) } : answer;
}
