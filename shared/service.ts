/** The public service: the default address of every client (SDK, Sheets add-on). Self-hosted installations pass their own. */
export const PUBLIC_API_BASE_URL = 'https://api.crc-rates.com/api/v1';
