/** What each language writes, sentence by sentence, from the facts, their reading and figures. */
import type { Facts } from './facts';
import type { Figures } from './figures';
import type { Reading } from './reading';

export interface Phrasebook {
  summary(facts: Facts, r: Reading, f: Figures): string[];
  mainCause(facts: Facts, r: Reading, f: Figures): string;
  movesCause(facts: Facts, r: Reading, f: Figures): string | null;
  spreadCause(facts: Facts, r: Reading, f: Figures): string;
  institutionsCause(facts: Facts, r: Reading, f: Figures): string | null;
}
