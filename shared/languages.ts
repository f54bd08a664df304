/** The two languages of the service's pages and texts: Costa Rica's, and English. */
export const LANGS = ['es', 'en'] as const;
export type Lang = (typeof LANGS)[number];
