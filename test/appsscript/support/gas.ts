/**
 * Apps Script, as far as the add-on uses it, for running the built Code.js in `node:vm`:
 * UrlFetchApp (synchronous, real HTTP through the API server's worker), CacheService (in memory,
 * with getAll/putAll and expiry), PropertiesService (document properties), Utilities.formatDate
 * (real time zones through Intl), SpreadsheetApp (locale, zone, the menu, the sidebar, one sheet
 * with a selection and toasts: support/grid.ts), HtmlService (templates with `<?!= name ?>`),
 * ScriptApp.AuthMode and Logger.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import { FakeGrid } from './grid';
import type { FetchReply } from './sync-channel';

export interface FetchCall {
  url: string;
  headers: Record<string, string>;
  muteHttpExceptions: boolean;
}

export interface GasOptions {
  /** Where the requests go: usually the API server's `fetch`. */
  fetch: (requests: Array<{ url: string; headers: Record<string, string> }>) => FetchReply[];
  locale?: string;
  timeZone?: string;
  properties?: Record<string, string>;
  /** The folder of the built project (Code.js, Sidebar.html). */
  dist: string;
}

export interface Gas {
  context: vm.Context;
  /** Calls a top-level function of Code.js as Apps Script would (by name). */
  run<T = unknown>(name: string, ...args: unknown[]): T;
  calls: FetchCall[];
  properties: Map<string, string>;
  /** Calls to the document properties, by method. */
  propertyOps: Record<'getProperties' | 'getProperty' | 'setProperty' | 'setProperties' | 'deleteProperty', number>;
  cache: FakeCache;
  /** The active sheet: cells, formulas, the selection, toasts. */
  grid: FakeGrid;
  menus: Array<{ items: Array<[label: string, fn: string]> }>;
  sidebars: Array<{ html: string; title: string }>;
  locale: string;
  timeZone: string;
  /** In AuthMode.NONE, touching anything but the UI throws (as it does in Sheets). */
  authMode: 'NONE' | 'LIMITED' | 'FULL';
  /** Moves the script's clock (Date.now) forward, for cache expiry. */
  advance(seconds: number): void;
}

export class FakeCache {
  private entries = new Map<string, { value: string; expires: number }>();
  ops = { getAll: 0, putAll: 0, get: 0, put: 0 };
  ttls: number[] = [];
  constructor(private now: () => number) {}

  private check(ttl: number | undefined): number {
    const seconds = ttl ?? 600;
    if (!(seconds >= 1 && seconds <= 21_600)) throw new Error(`Exception: expiration must be 1..21600 s, got ${seconds}`);
    this.ttls.push(seconds);
    return seconds;
  }
  private read(key: string): string | null {
    if (key.length > 250) throw new Error(`Exception: key longer than 250 characters: ${key}`);
    const hit = this.entries.get(key);
    if (!hit || hit.expires <= this.now()) return null;
    return hit.value;
  }
  get(key: string): string | null {
    this.ops.get++;
    return this.read(key);
  }
  getAll(keys: string[]): Record<string, string> {
    this.ops.getAll++;
    const out: Record<string, string> = {};
    for (const key of keys) {
      const value = this.read(key);
      if (value !== null) out[key] = value;
    }
    return out;
  }
  put(key: string, value: string, ttl?: number): void {
    this.ops.put++;
    this.entries.set(key, { value, expires: this.now() + this.check(ttl) * 1000 });
  }
  putAll(values: Record<string, string>, ttl?: number): void {
    this.ops.putAll++;
    const seconds = this.check(ttl);
    for (const [key, value] of Object.entries(values)) {
      if (key.length > 250) throw new Error(`Exception: key longer than 250 characters: ${key}`);
      if (value.length > 100_000) throw new Error('Exception: Argument too large: value');
      this.entries.set(key, { value, expires: this.now() + seconds * 1000 });
    }
  }
  remove(key: string): void {
    this.entries.delete(key);
  }
  keys(): string[] {
    return [...this.entries.keys()];
  }
  clear(): void {
    this.entries.clear();
  }
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** Utilities.formatDate for the patterns the add-on uses: yyyy MM dd HH mm ss Z and 'quoted'. */
export function formatDate(date: Date, timeZone: string, pattern: string): string {
  const ms = Number(date.valueOf());
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, f);
  }
  const parts = Object.fromEntries(f.formatToParts(new Date(ms)).map((p) => [p.type, p.value]));
  const wall = Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day), Number(parts.hour), Number(parts.minute), Number(parts.second));
  const offset = Math.round((wall - Math.floor(ms / 1000) * 1000) / 60_000);
  const sign = offset < 0 ? '-' : '+';
  const abs = Math.abs(offset);
  const zone = `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}${String(abs % 60).padStart(2, '0')}`;
  return pattern.replace(/yyyy|MM|dd|HH|mm|ss|Z|'[^']*'/g, (token) => {
    switch (token) {
      case 'yyyy':
        return parts.year!;
      case 'MM':
        return parts.month!;
      case 'dd':
        return parts.day!;
      case 'HH':
        return parts.hour!;
      case 'mm':
        return parts.minute!;
      case 'ss':
        return parts.second!;
      case 'Z':
        return zone;
      default:
        return token.slice(1, -1);
    }
  });
}

class HtmlOutput {
  title = '';
  constructor(private content: string) {}
  setTitle(title: string) {
    this.title = title;
    return this;
  }
  getContent() {
    return this.content;
  }
}

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

/** HtmlService's template scriptlets, as far as Sidebar.html uses them: `<?!= name ?>` and `<?= name ?>`. */
export function evaluateTemplate(source: string, scope: Record<string, unknown>): string {
  const out = source.replace(/<\?(!?=)\s*([A-Za-z_$][\w$]*)\s*\?>/g, (_, kind: string, name: string) => {
    if (!(name in scope)) throw new Error(`ReferenceError: "${name}" is not defined in the template`);
    const value = String(scope[name]);
    return kind === '!=' ? value : escapeHtml(value);
  });
  if (out.includes('<?')) throw new Error('unsupported scriptlet left in the template');
  return out;
}

export function loadGas(options: GasOptions): Gas {
  const code = readFileSync(path.join(options.dist, 'Code.js'), 'utf8');
  let offsetMs = 0;
  const now = () => Date.now() + offsetMs;
  const calls: FetchCall[] = [];
  const properties = new Map(Object.entries(options.properties ?? {}));
  const cache = new FakeCache(now);
  const grid = new FakeGrid();
  const propertyOps: Gas['propertyOps'] = { getProperties: 0, getProperty: 0, setProperty: 0, setProperties: 0, deleteProperty: 0 };
  const menus: Gas['menus'] = [];
  const sidebars: Gas['sidebars'] = [];

  const gas = {
    calls,
    properties,
    propertyOps,
    cache,
    grid,
    menus,
    sidebars,
    locale: options.locale ?? 'en_US',
    timeZone: options.timeZone ?? 'America/Costa_Rica',
    authMode: 'FULL' as Gas['authMode'],
    advance(seconds: number) {
      offsetMs += seconds * 1000;
    },
  };
  const guarded = (what: string) => {
    if (gas.authMode === 'NONE') throw new Error(`Exception: You do not have permission to call ${what} (AuthMode.NONE)`);
  };

  const response = (reply: FetchReply, url: string, mute: boolean) => {
    if ('error' in reply) throw new Error(`Address unavailable: ${url}`);
    if (!mute && reply.status >= 400) throw new Error(`Request failed for ${url} returned code ${reply.status}`);
    return {
      getResponseCode: () => reply.status,
      getContentText: () => reply.body,
      getHeaders: () => ({ ...reply.headers }),
      getAllHeaders: () => ({ ...reply.headers }),
    };
  };
  const fetchAll = (requests: Array<{ url: string; headers?: Record<string, string>; muteHttpExceptions?: boolean }>) => {
    guarded('UrlFetchApp.fetch');
    for (const r of requests) calls.push({ url: r.url, headers: { ...(r.headers ?? {}) }, muteHttpExceptions: !!r.muteHttpExceptions });
    const replies = options.fetch(requests.map((r) => ({ url: r.url, headers: { ...(r.headers ?? {}) } })));
    return replies.map((reply, i) => response(reply, requests[i]!.url, !!requests[i]!.muteHttpExceptions));
  };

  /** Apps Script's limits: 9 KB per value, 500 KB per store. */
  const checkSize = () => {
    let total = 0;
    for (const [k, v] of properties) {
      if (Buffer.byteLength(v) > 9 * 1024) throw new Error(`Exception: Argument too large: ${k}`);
      total += Buffer.byteLength(k) + Buffer.byteLength(v);
    }
    if (total > 500 * 1024) throw new Error('Exception: You have exceeded the property storage quota.');
  };
  const documentProperties = {
    getProperty(k: string) {
      propertyOps.getProperty++;
      return properties.get(k) ?? null;
    },
    getProperties() {
      propertyOps.getProperties++;
      return Object.fromEntries(properties);
    },
    setProperty(k: string, v: string) {
      propertyOps.setProperty++;
      properties.set(k, String(v));
      checkSize();
      return documentProperties;
    },
    setProperties(values: Record<string, string>, deleteAllOthers?: boolean) {
      propertyOps.setProperties++;
      if (deleteAllOthers) properties.clear();
      for (const [k, v] of Object.entries(values)) properties.set(k, String(v));
      checkSize();
      return documentProperties;
    },
    deleteProperty(k: string) {
      propertyOps.deleteProperty++;
      properties.delete(k);
      return documentProperties;
    },
  };

  const ui = {
    createAddonMenu() {
      const menu = { items: [] as Array<[string, string]> };
      const api = {
        addItem(label: string, fn: string) {
          menu.items.push([label, fn]);
          return api;
        },
        addSeparator() {
          return api;
        },
        addToUi() {
          menus.push(menu);
        },
      };
      return api;
    },
    showSidebar(output: HtmlOutput) {
      sidebars.push({ html: output.getContent(), title: output.title });
    },
  };

  const spreadsheet = {
    getSpreadsheetLocale: () => gas.locale,
    getSpreadsheetTimeZone: () => gas.timeZone,
    getActiveRangeList: () =>
      grid.selection.length === 0 ? null : { getRanges: () => grid.selection.map(([row, column, rows, columns]) => grid.range(row, column, rows, columns)) },
    toast: (message: string, title = '', seconds = 5) => {
      grid.toasts.push({ message, title, seconds });
    },
  };

  const sandbox: Record<string, unknown> = {
    console,
    Logger: { log: () => undefined },
    UrlFetchApp: {
      fetch: (url: string, params: { headers?: Record<string, string>; muteHttpExceptions?: boolean } = {}) => fetchAll([{ url, ...params }])[0],
      fetchAll,
    },
    CacheService: {
      getDocumentCache: () => {
        guarded('CacheService');
        return cache;
      },
      getScriptCache: () => {
        guarded('CacheService');
        return cache;
      },
      getUserCache: () => {
        guarded('CacheService');
        return cache;
      },
    },
    PropertiesService: {
      getDocumentProperties: () => {
        guarded('PropertiesService');
        return documentProperties;
      },
      getUserProperties: () => {
        throw new Error('the add-on must keep its settings in document properties');
      },
      getScriptProperties: () => {
        throw new Error('the add-on must keep its settings in document properties');
      },
    },
    Utilities: { formatDate },
    SpreadsheetApp: {
      getActive: () => {
        guarded('SpreadsheetApp.getActive');
        return spreadsheet;
      },
      getActiveSpreadsheet: () => {
        guarded('SpreadsheetApp.getActive');
        return spreadsheet;
      },
      getUi: () => ui,
      flush: () => undefined,
      CopyPasteType: { PASTE_NORMAL: 'PASTE_NORMAL', PASTE_VALUES: 'PASTE_VALUES', PASTE_FORMAT: 'PASTE_FORMAT' },
    },
    HtmlService: {
      createTemplateFromFile(name: string) {
        const source = readFileSync(path.join(options.dist, `${name}.html`), 'utf8');
        const template: Record<string, unknown> & { evaluate(): HtmlOutput } = {
          evaluate: () => new HtmlOutput(evaluateTemplate(source, template)),
        };
        return template;
      },
      createHtmlOutputFromFile: (name: string) => new HtmlOutput(readFileSync(path.join(options.dist, `${name}.html`), 'utf8')),
    },
    ScriptApp: { AuthMode: { NONE: 'NONE', LIMITED: 'LIMITED', FULL: 'FULL', CUSTOM_FUNCTION: 'CUSTOM_FUNCTION' } },
  };
  const context = vm.createContext(sandbox);
  // The script's clock, movable by `advance` (cache expiry is measured with Date.now).
  vm.runInContext('(function (now) { Date.now = now; })', context)(now);
  vm.runInContext(code, context, { filename: 'Code.js' });

  return Object.assign(gas, {
    context,
    run<T>(name: string, ...args: unknown[]): T {
      const fn = (context as Record<string, unknown>)[name];
      if (typeof fn !== 'function') throw new Error(`Code.js has no top-level function ${name}`);
      return (fn as (...a: unknown[]) => T)(...args);
    },
  });
}
