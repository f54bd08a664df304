/** Types of format.js, which is plain JavaScript so that browsers can load it as it is. */
export function money(value: number, lang: 'es' | 'en'): string;
export function compact(value: number): boolean;
export function date(iso: string, lang: 'es' | 'en'): string;
