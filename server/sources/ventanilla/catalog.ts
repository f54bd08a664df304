/**
 * The institutions that quote dollars at the window (about 37: banks, financial companies,
 * mutuals, cooperatives, exchange houses and brokerages), kept as data in `catalog.json` and
 * checked here once, when the module loads: a duplicated id or indicator code would silently
 * merge two institutions, so it stops the process instead.
 *
 * Matching is by cuadro 1015 indicator code first, then by a normalised name against the
 * official name and the aliases (the central bank prints names with and without "S.A.", accents
 * and parentheses). What the catalog does not know is still usable: `slugify` gives it an id and
 * `inferType` or the group heading above it gives it a type.
 */
import { INSTITUTION_TYPES, type InstitutionType } from '../../../shared/institutions';
import raw from './catalog.json';

export interface CatalogEntry {
  /** A stable slug, the institution's id in the API (`banco-nacional`). */
  readonly id: string;
  readonly name: string;
  readonly type: InstitutionType;
  /** Indicator codes of cuadro 1015 on the token API; null where not known. */
  readonly buyCode: string | null;
  readonly sellCode: string | null;
  /** Other spellings, as the central bank prints them. */
  readonly aliases: readonly string[];
}

const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const CODE = /^\d+$/;
// Legal forms carry no identity: "Banco BCT S.A." and "Banco BCT" are one bank. Cooperatives are
// "R.L." (responsabilidad limitada). Removed as whole words, wherever they appear.
const LEGAL_FORMS = /\b(?:s a|sa|r l|rl|ltda|limitada|sociedad anonima)\b/g;

function stripAccents(text: string): string {
  return text.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
}

/** Lower case, no accents, punctuation as spaces, no legal form: `banco bac san jose`. */
export function normalizeName(name: string): string {
  return stripAccents(name)
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .replace(LEGAL_FORMS, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The matching key: the normalised name without spaces, so "Coope-Ande" meets "Coopeande". */
function nameKey(name: string): string {
  return normalizeName(name).replaceAll(' ', '');
}

/** `Casa de Cambio Ficticia S.A.` → `casa-de-cambio-ficticia`: the id of an institution the catalog does not know. */
export function slugify(name: string): string {
  return normalizeName(name).replaceAll(' ', '-');
}

export function isInstitutionType(value: unknown): value is InstitutionType {
  return typeof value === 'string' && (INSTITUTION_TYPES as readonly string[]).includes(value);
}

/** Checks the catalog's shape and that no id, code or name can mean two institutions. */
export function validateCatalog(data: unknown): CatalogEntry[] {
  if (!Array.isArray(data)) throw new Error('ventanilla catalog: expected an array of institutions');
  const ids = new Set<string>();
  const codes = new Map<string, string>();
  const names = new Map<string, string>();
  return data.map((item: unknown, i) => {
    const at = `ventanilla catalog entry ${i}`;
    if (typeof item !== 'object' || item === null || Array.isArray(item)) throw new Error(`${at}: not an object`);
    const e = item as Record<string, unknown>;
    if (typeof e.id !== 'string' || !SLUG.test(e.id)) throw new Error(`${at}: id ${JSON.stringify(e.id)} is not a slug`);
    if (ids.has(e.id)) throw new Error(`${at}: duplicate id ${e.id}`);
    ids.add(e.id);
    if (typeof e.name !== 'string' || nameKey(e.name) === '') throw new Error(`${at} (${e.id}): empty name`);
    if (!isInstitutionType(e.type)) throw new Error(`${at} (${e.id}): type ${JSON.stringify(e.type)} is not one of ${INSTITUTION_TYPES.join(', ')}`);
    for (const side of ['buyCode', 'sellCode'] as const) {
      const code = e[side];
      if (code === null) continue;
      if (typeof code !== 'string' || !CODE.test(code)) throw new Error(`${at} (${e.id}): ${side} ${JSON.stringify(code)} is neither null nor digits`);
      const owner = codes.get(code);
      if (owner !== undefined) throw new Error(`${at} (${e.id}): code ${code} already belongs to ${owner}`);
      codes.set(code, e.id);
    }
    if (!Array.isArray(e.aliases) || !e.aliases.every((a): a is string => typeof a === 'string' && nameKey(a) !== '')) {
      throw new Error(`${at} (${e.id}): aliases must be non-empty strings`);
    }
    for (const n of [e.name, ...e.aliases]) {
      const owner = names.get(nameKey(n));
      if (owner !== undefined && owner !== e.id) throw new Error(`${at} (${e.id}): name ${JSON.stringify(n)} already belongs to ${owner}`);
      names.set(nameKey(n), e.id);
    }
    return Object.freeze({
      id: e.id,
      name: e.name,
      type: e.type,
      buyCode: e.buyCode as string | null,
      sellCode: e.sellCode as string | null,
      aliases: Object.freeze([...e.aliases]),
    });
  });
}

export const CATALOG: readonly CatalogEntry[] = Object.freeze(validateCatalog(raw));

const byCode = new Map<string, CatalogEntry>();
const byName = new Map<string, CatalogEntry>();
for (const entry of CATALOG) {
  if (entry.buyCode !== null) byCode.set(entry.buyCode, entry);
  if (entry.sellCode !== null) byCode.set(entry.sellCode, entry);
  for (const n of [entry.name, ...entry.aliases]) byName.set(nameKey(n), entry);
}

/** The side a catalog code stands for, or null when the code is not in the catalog. */
export function sideOfCode(code: string): { entry: CatalogEntry; side: 'buy' | 'sell' } | null {
  const entry = byCode.get(code.trim());
  if (!entry) return null;
  return { entry, side: entry.buyCode === code.trim() ? 'buy' : 'sell' };
}

/** By indicator code first, then by normalised name or alias; null when neither is known. */
export function matchInstitution(nameOrCode: { code?: string; name?: string }): CatalogEntry | null {
  const code = nameOrCode.code?.trim();
  if (code) {
    const entry = byCode.get(code);
    if (entry) return entry;
  }
  if (nameOrCode.name !== undefined) {
    const key = nameKey(nameOrCode.name);
    if (key !== '') return byName.get(key) ?? null;
  }
  return null;
}

const PUBLIC_BANK = /^(?:banco (?:nacional(?: de costa rica)?|de costa rica|popular(?: y de desarrollo comunal)?)|bncr|bcr|bpdc)$/;

/**
 * The type a name speaks for, by its words; null when it says nothing. The order matters:
 * "BN Valores Puesto de Bolsa" is a brokerage although it names a bank.
 */
export function inferType(name: string): InstitutionType | null {
  const n = normalizeName(name);
  const legalForm = stripAccents(name)
    .toLowerCase()
    .replace(/[^a-z]+/g, ' ');
  if (/\bvalores\b|\bpuestos? de bolsa\b|\bsecurities\b/.test(n)) return 'brokerage';
  if (/\bcasas? de cambio\b|cambiari|\bcambios?\b|\bexchange\b/.test(n)) return 'exchange_house';
  if (/\bmutual|\bmucap\b/.test(n)) return 'mutual';
  // "R.L." is the legal form of cooperatives; "Credecoop" and "Coocique" are cooperatives too.
  if (/coop|\bcoo/.test(n) || /\br ?l\b\s*$/.test(legalForm.trim())) return 'cooperative';
  if (/\bfinanciera\b/.test(n)) return 'financial';
  if (PUBLIC_BANK.test(n)) return 'public_bank';
  if (/\bbanco\b|bank\b/.test(n)) return 'private_bank';
  return null;
}

const HEADINGS: Array<[RegExp, InstitutionType]> = [
  // Banco Popular sits among the public banks; older tables called its group "creados por leyes especiales".
  [/^bancos? (?:publicos?|estatales?|del estado|comerciales del estado|creados? por leyes? especial(?:es)?)$|^public banks?$/, 'public_bank'],
  [/^bancos? privados?$|^private banks?$/, 'private_bank'],
  [/^(?:empresas? |entidades? )?financieras?(?: no bancarias?)?$|^financial (?:companies|company|entities)$/, 'financial'],
  [/^(?:entidades? |asociaciones? )?mutual(?:es|istas?)?(?: de (?:ahorro y prestamo|vivienda))?$|^mutuals?$/, 'mutual'],
  [/^cooperativas?(?: de ahorro y credito)?$|^cooperatives?$/, 'cooperative'],
  [/^casas? de cambios?$|^exchange (?:houses?|offices?)$/, 'exchange_house'],
  [/^puestos? de bolsa$|^brokerages?(?: firms?)?$/, 'brokerage'],
];

/**
 * The central bank's group headings ("Bancos públicos", "Casas de cambio"…), with or without
 * accents, singular or plural; null for anything else, including institution names.
 */
export function typeFromGroupHeading(text: string): InstitutionType | null {
  const n = normalizeName(text);
  for (const [pattern, type] of HEADINGS) if (pattern.test(n)) return type;
  return null;
}
