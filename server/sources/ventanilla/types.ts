/**
 * The contract between the window (ventanilla) adapters and the banking sync: each day the
 * central bank publishes, with one quote per institution that had a value that day.
 */
import type { InstitutionType } from '../../../shared/institutions';

export interface VentanillaQuote {
  /** The catalog id, or a slug of the printed name when the catalog does not know it. */
  institutionId: string;
  /** The catalog's name, or the name as printed when the catalog does not know it. */
  name: string;
  /** The catalog's type; else the group heading above the row; else what the name says; else null. */
  type: InstitutionType | null;
  buy: number | null;
  sell: number | null;
  /** ISO instant (UTC) of the institution's own last update, when the source gives one. */
  updatedAt: string | null;
  /** In the catalog. */
  known: boolean;
}

export interface VentanillaDay {
  date: string;
  quotes: VentanillaQuote[];
}

export interface VentanillaSource {
  readonly name: 'bccr-sdde' | 'bccr-site';
  /** The longest span (calendar days, inclusive) one `fetchRange` call accepts. */
  readonly maxChunkDays: number;
  /**
   * Days with `from <= date <= to` that have at least one quote, ascending; days without any are
   * left out. `signal` aborts the requests (a shutdown).
   */
  fetchRange(from: string, to: string, signal?: AbortSignal): Promise<VentanillaDay[]>;
}
