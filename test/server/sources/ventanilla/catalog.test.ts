import raw from '../../../../server/sources/ventanilla/catalog.json';
import {
  CATALOG,
  inferType,
  matchInstitution,
  normalizeName,
  slugify,
  typeFromGroupHeading,
  validateCatalog,
} from '../../../../server/sources/ventanilla/catalog';
import { INSTITUTION_TYPES } from '../../../../shared/institutions';

const entry = (over: Record<string, unknown> = {}) => ({
  id: 'banco-x',
  name: 'Banco X',
  type: 'private_bank',
  buyCode: null,
  sellCode: null,
  aliases: [],
  ...over,
});

describe('the catalog data', () => {
  it('holds about 37 institutions of every type, with unique ids and codes', () => {
    expect(CATALOG.length).toBeGreaterThanOrEqual(35);
    expect(CATALOG.length).toBeLessThanOrEqual(40);
    expect(new Set(CATALOG.map((e) => e.type))).toEqual(new Set(INSTITUTION_TYPES));
    expect(new Set(CATALOG.map((e) => e.id)).size).toBe(CATALOG.length);
    const codes = CATALOG.flatMap((e) => [e.buyCode, e.sellCode]).filter((c) => c !== null);
    expect(new Set(codes).size).toBe(codes.length);
    for (const e of CATALOG) expect(e.id).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
  });

  it('has the known cuadro 1015 codes and no invented ones', () => {
    const coded = Object.fromEntries(CATALOG.filter((e) => e.buyCode !== null || e.sellCode !== null).map((e) => [e.id, [e.buyCode, e.sellCode]]));
    expect(coded).toEqual({
      'banco-nacional': ['3149', '3208'],
      'banco-de-costa-rica': ['3148', '3207'],
      'banco-popular': ['3179', '3209'],
      'bac-san-jose': ['3181', '3215'],
      teledolar: ['3201', '3271'],
    });
  });

  it('puts the groups where the central bank does', () => {
    const typeOf = (id: string) => CATALOG.find((e) => e.id === id)?.type;
    expect(['banco-nacional', 'banco-de-costa-rica', 'banco-popular'].map(typeOf)).toEqual(['public_bank', 'public_bank', 'public_bank']);
    expect(typeOf('bac-san-jose')).toBe('private_bank');
    expect(typeOf('teledolar')).toBe('exchange_house');
    expect(typeOf('mucap')).toBe('mutual');
    expect(typeOf('bn-valores')).toBe('brokerage');
  });

  it('is plain data: every entry is exactly the JSON object', () => {
    expect(CATALOG).toEqual(raw);
  });

  it('names that the catalog says are the type inferType gives them, where the name speaks at all', () => {
    for (const e of CATALOG) {
      const inferred = inferType(e.name);
      if (inferred !== null) expect([e.id, inferred]).toEqual([e.id, e.type]);
    }
  });
});

describe('validateCatalog', () => {
  it('accepts a good catalog', () => {
    expect(validateCatalog([entry(), entry({ id: 'banco-y', name: 'Banco Y', buyCode: '1', sellCode: '2' })])).toHaveLength(2);
  });

  it.each([
    ['not an array', {}, /array/],
    ['a bad id', [entry({ id: 'Banco X' })], /not a slug/],
    ['a duplicate id', [entry(), entry({ name: 'Banco Z' })], /duplicate id banco-x/],
    ['a bad type', [entry({ type: 'bank' })], /type "bank" is not one of/],
    ['a missing code field', [entry({ buyCode: undefined })], /buyCode/],
    ['a non-numeric code', [entry({ sellCode: 'abc' })], /sellCode/],
    ['a code used twice', [entry({ buyCode: '7' }), entry({ id: 'banco-y', name: 'Banco Y', sellCode: '7' })], /code 7 already belongs to banco-x/],
    ['a name used twice', [entry(), entry({ id: 'banco-y', name: 'Banco Y', aliases: ['BANCO X S.A.'] })], /already belongs to banco-x/],
    ['an empty name', [entry({ name: ' S.A. ' })], /empty name/],
    ['bad aliases', [entry({ aliases: ['ok', 3] })], /aliases/],
  ])('refuses %s', (_name, data, message) => {
    expect(() => validateCatalog(data)).toThrow(message);
  });
});

describe('matchInstitution', () => {
  it('matches by code first, whatever the name says', () => {
    expect(matchInstitution({ code: '3149' })?.id).toBe('banco-nacional');
    expect(matchInstitution({ code: '3208' })?.id).toBe('banco-nacional');
    expect(matchInstitution({ code: '3271', name: 'Banco de Costa Rica' })?.id).toBe('teledolar');
  });

  it('falls back to the name when the code is unknown', () => {
    expect(matchInstitution({ code: '99999', name: 'Banco de Costa Rica' })?.id).toBe('banco-de-costa-rica');
  });

  it.each([
    ['Banco BAC San José S.A.', 'bac-san-jose'],
    ['BANCO BAC SAN JOSE, S. A.', 'bac-san-jose'],
    ['banco bac san jose sa', 'bac-san-jose'],
    ['  Banco   Nacional de Costa Rica ', 'banco-nacional'],
    ['Banco Nacional', 'banco-nacional'],
    ['Banco Popular y de Desarrollo Comunal', 'banco-popular'],
    ['Teledólar S.A.', 'teledolar'],
    ['Coopeande No.1 R.L.', 'coopeande'],
    ['COOPE-ANDE N° 1', 'coopeande'],
    ['Grupo Mutual Alajuela-La Vivienda', 'mutual-alajuela'],
    ['Grupo Mutual Alajuela - La Vivienda de Ahorro y Préstamo', 'mutual-alajuela'],
    ['Mutual Cartago de Ahorro y Préstamo (MUCAP)', 'mucap'],
    ['Banco Davivienda (Costa Rica) S.A.', 'banco-davivienda'],
    ['Scotiabank de Costa Rica S.A.', 'scotiabank'],
    ['Financiera CAFSA S.A.', 'financiera-cafsa'],
    ['BCR Valores S.A. Puesto de Bolsa', 'bcr-valores'],
    ['BCR Valores Puesto de Bolsa S.A.', 'bcr-valores'],
    ['Coopenae R.L.', 'coopenae'],
  ])('%s → %s', (name, id) => {
    expect(matchInstitution({ name })?.id).toBe(id);
  });

  it('answers null for what it does not know', () => {
    expect(matchInstitution({ name: 'Casa de Cambio Ficticia S.A.' })).toBeNull();
    expect(matchInstitution({ code: '1' })).toBeNull();
    expect(matchInstitution({ name: '' })).toBeNull();
    expect(matchInstitution({ name: 'S.A.' })).toBeNull();
    expect(matchInstitution({})).toBeNull();
    // Close is not equal: no prefix matching.
    expect(matchInstitution({ name: 'Banco Nacional de Panamá' })).toBeNull();
  });
});

describe('normalizeName and slugify', () => {
  it('drops case, accents, punctuation and legal forms', () => {
    expect(normalizeName('Banco BAC San José, S.A.')).toBe('banco bac san jose');
    expect(normalizeName('Coopenae R.L.')).toBe('coopenae');
    expect(normalizeName('Financiera Cafsa')).toBe('financiera cafsa'); // "sa" inside a word stays
  });
  it('makes ids of names', () => {
    expect(slugify('Casa de Cambio Ficticia S.A.')).toBe('casa-de-cambio-ficticia');
    expect(slugify('Cambios Ñandú (Costa Rica) Ltda.')).toBe('cambios-nandu-costa-rica');
  });
});

describe('inferType', () => {
  it.each([
    ['Banco Nacional de Costa Rica', 'public_bank'],
    ['Banco de Costa Rica', 'public_bank'],
    ['Banco Popular', 'public_bank'],
    ['Banco Cathay de Costa Rica S.A.', 'private_bank'],
    ['Banco Nuevo S.A.', 'private_bank'],
    ['Prival Bank (Costa Rica)', 'private_bank'],
    ['Scotiabank', 'private_bank'],
    ['Financiera Nueva S.A.', 'financial'],
    ['Mutual Nueva de Ahorro y Préstamo', 'mutual'],
    ['Coopenueva R.L.', 'cooperative'],
    ['Cooperativa de Ahorro y Crédito Nueva', 'cooperative'],
    ['Credecoop', 'cooperative'],
    ['Nueva Ahorro R.L.', 'cooperative'],
    ['BN Valores Puesto de Bolsa S.A.', 'brokerage'],
    ['Nuevo Puesto de Bolsa', 'brokerage'],
    ['Casa de Cambio Ficticia S.A.', 'exchange_house'],
    ['Servicios Cambiarios S.A.', 'exchange_house'],
  ])('%s → %s', (name, type) => expect(inferType(name)).toBe(type));

  it('answers null when the name says nothing', () => {
    expect(inferType('Teledolar S.A.')).toBeNull();
    expect(inferType('')).toBeNull();
  });
});

describe('typeFromGroupHeading', () => {
  it.each([
    ['Bancos públicos', 'public_bank'],
    ['BANCOS PUBLICOS', 'public_bank'],
    ['Banco público', 'public_bank'],
    ['Bancos creados por leyes especiales', 'public_bank'],
    ['Bancos privados', 'private_bank'],
    ['Banco privado:', 'private_bank'],
    ['Financieras', 'financial'],
    ['Empresas financieras no bancarias', 'financial'],
    ['Financiera', 'financial'],
    ['Mutuales', 'mutual'],
    ['Mutual', 'mutual'],
    ['Cooperativas', 'cooperative'],
    ['Cooperativas de ahorro y crédito', 'cooperative'],
    ['Casas de cambio', 'exchange_house'],
    ['Casa de cambio', 'exchange_house'],
    ['Puestos de bolsa', 'brokerage'],
    ['Puesto de Bolsa', 'brokerage'],
  ])('%s → %s', (text, type) => expect(typeFromGroupHeading(text)).toBe(type));

  it.each(['Banco Popular', 'Financiera Desyfin S.A.', 'Coopenae R.L.', 'Otras entidades', '', 'Entidad'])('%s is no heading', (text) => {
    expect(typeFromGroupHeading(text)).toBeNull();
  });
});
