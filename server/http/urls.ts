/**
 * Where the API lives: kept apart from the app so that a client of the API (the MCP server on
 * stdio) can know its address without loading the app and its database drivers.
 */
export const API_PREFIX = '/api/v1';

/** What a server started with the defaults answers at. */
export const DEFAULT_PUBLIC_URL = 'http://localhost:3000';
