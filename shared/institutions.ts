/** The central bank's groupings of the institutions that quote dollars at the window. */
export const INSTITUTION_TYPES = ['public_bank', 'private_bank', 'financial', 'cooperative', 'mutual', 'exchange_house', 'brokerage'] as const;
export type InstitutionType = (typeof INSTITUTION_TYPES)[number];
