/**
 * The last known good copy. Every answer fetched from the API is also kept in the document's
 * properties, so that when the API fails for a transient reason (unreachable, 5xx, 429) a cell
 * shows the last value it had instead of #ERROR!, and a closed month's figures do not break a
 * sheet for an outage. CacheService forgets within hours; document properties stay with the
 * spreadsheet.
 *
 * Layout: one answer is the JSON `{"k": key, "t": savedAt, "v": value}`, escaped to ASCII (so that
 * characters are bytes) and cut into parts of at most LAST_GOOD.partChars characters, stored as
 * `CRC_RATES_LKG.<id>.<i>.<n>` (`id` a hash of the key, part `i` of `n`). One group of properties
 * per answer rather than one property for all: Sheets runs many custom functions at once, and
 * each rewrites only its own answers. The whole copy is bounded (LAST_GOOD.maxChars and
 * maxEntries): the answers saved longest ago go first.
 *
 * Reads come from the snapshot of the properties the call started with (one getProperties for
 * everything); writes go through the `PropertyStore` it is handed.
 */
import { hash53 } from './cache';
import { LAST_GOOD, PROPERTY } from './config';

/** The calls of Apps Script's `Properties` the copy uses. */
export interface PropertyStore {
  setProperties(values: Record<string, string>): unknown;
  setProperty(key: string, value: string): unknown;
  deleteProperty(key: string): unknown;
}

export interface Recalled {
  value: unknown;
  /** When the answer was fetched (ms since the epoch). */
  savedAt: number;
}

interface Kept extends Recalled {
  key: string;
  /** Characters of the stored JSON. */
  size: number;
  /** Its property names. */
  names: string[];
}

/** Which answers were last served from the copy instead of the API, and why. */
export interface StaleState {
  /** The first failure since those answers were last fetched. */
  since: number;
  /** The latest failure. */
  at: number;
  /** What the failure said, as the cell would have shown it. */
  reason: string;
  /** key → when the copy served for it was saved. */
  keys: Record<string, number>;
}

/** What the sidebar is told of a stale state. */
export interface StaleView {
  since: string;
  at: string;
  reason: string;
  count: number;
  /** The oldest copy served: how old the stale data may be. */
  oldestSavedAt: string;
}

const NAME = /^(.+)\.(\d+)\.(\d+)$/;

/** JSON with every non-ASCII character as `\uXXXX`: one character, one byte, against the 9 KB limit. */
function toAscii(json: string): string {
  return json.replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** The kept answers of a properties snapshot by id, and the names of parts that make no whole answer. */
export function readKept(snapshot: Record<string, string>): { kept: Map<string, Kept>; garbage: string[] } {
  const groups = new Map<string, Map<number, { name: string; text: string }>>();
  const garbage: string[] = [];
  for (const name of Object.keys(snapshot)) {
    if (!name.startsWith(PROPERTY.lastGoodPrefix)) continue;
    const m = NAME.exec(name.slice(PROPERTY.lastGoodPrefix.length));
    if (!m) {
      garbage.push(name);
      continue;
    }
    // Grouped by id and part count: a writer that changed the count left a group of its own.
    const group = `${m[1]}.${m[3]}`;
    let parts = groups.get(group);
    if (!parts) {
      parts = new Map();
      groups.set(group, parts);
    }
    parts.set(Number(m[2]), { name, text: snapshot[name] ?? '' });
  }

  const kept = new Map<string, Kept>();
  for (const [group, parts] of groups) {
    const [id = '', count = '0'] = group.split('.');
    const names = [...parts.values()].map((p) => p.name);
    const n = Number(count);
    const texts: string[] = [];
    for (let i = 0; i < n && parts.has(i); i++) texts.push(parts.get(i)?.text ?? '');
    const entry = texts.length === n && parts.size === n ? parseKept(texts.join(''), names) : null;
    if (!entry || hash53(entry.key) !== id) {
      garbage.push(...names);
      continue;
    }
    const other = kept.get(id);
    if (other && other.savedAt >= entry.savedAt) garbage.push(...names);
    else {
      if (other) garbage.push(...other.names);
      kept.set(id, entry);
    }
  }
  return { kept, garbage };
}

function parseKept(text: string, names: string[]): Kept | null {
  try {
    const parsed = JSON.parse(text) as { k?: unknown; t?: unknown; v?: unknown };
    if (typeof parsed.k !== 'string' || typeof parsed.t !== 'number' || !('v' in parsed)) return null;
    return { key: parsed.k, savedAt: parsed.t, value: parsed.v, size: text.length, names };
  } catch {
    // A torn write (two executions at once) or a hand-edited property: not an answer, so it goes.
    return null;
  }
}

export function readStale(snapshot: Record<string, string>): StaleState | null {
  const text = snapshot[PROPERTY.stale];
  if (!text) return null;
  try {
    const s = JSON.parse(text) as Partial<StaleState>;
    if (typeof s.since !== 'number' || typeof s.at !== 'number' || typeof s.reason !== 'string' || !s.keys || typeof s.keys !== 'object') return null;
    const keys = Object.fromEntries(Object.entries(s.keys).filter(([, savedAt]) => typeof savedAt === 'number'));
    return Object.keys(keys).length > 0 ? { since: s.since, at: s.at, reason: s.reason, keys } : null;
  } catch {
    // Unreadable: as if nothing were stale; the next failure or success writes it anew.
    return null;
  }
}

export function staleView(state: StaleState | null): StaleView | null {
  if (!state) return null;
  const saved = Object.values(state.keys);
  return {
    since: new Date(state.since).toISOString(),
    at: new Date(state.at).toISOString(),
    reason: state.reason,
    count: saved.length,
    oldestSavedAt: new Date(Math.min(...saved)).toISOString(),
  };
}

export function createLastGood(store: PropertyStore | null, snapshot: Record<string, string>, now: () => number) {
  const { kept, garbage } = readKept(snapshot);
  let stale = readStale(snapshot);

  /** Writes the stale state (or removes it when nothing is stale any more). */
  const writeStale = (next: StaleState | null) => {
    stale = next;
    if (!store) return;
    try {
      if (next) store.setProperty(PROPERTY.stale, JSON.stringify(next));
      else store.deleteProperty(PROPERTY.stale);
    } catch {
      // Properties refused (quota): only the sidebar's notice is off; the cells are right.
    }
  };

  return {
    /** The kept answers of these keys. */
    recall(keys: readonly string[]): Map<string, Recalled> {
      const found = new Map<string, Recalled>();
      for (const key of keys) {
        const entry = kept.get(hash53(key));
        if (entry && entry.key === key) found.set(key, { value: entry.value, savedAt: entry.savedAt });
      }
      return found;
    },

    /**
     * Keeps fetched answers (replacing older copies of the same keys), evicts the oldest beyond
     * the bounds, and clears these keys from the stale state: the API answered for them again.
     */
    keep(entries: ReadonlyArray<{ key: string; value: unknown }>): void {
      if (!store || entries.length === 0) return;
      const t = now();
      const fresh = new Map<string, Kept & { parts: Record<string, string> }>();
      let total = 0;
      for (const { key, value } of entries) {
        const text = toAscii(JSON.stringify({ k: key, t, v: value }));
        // One call's answers beyond the bounds (a column of a thousand months) are not kept: the
        // copy holds what fits, never more. None is larger than the whole copy today.
        if (total + text.length > LAST_GOOD.maxChars || fresh.size >= LAST_GOOD.maxEntries) continue;
        total += text.length;
        const id = hash53(key);
        const n = Math.ceil(text.length / LAST_GOOD.partChars);
        const parts: Record<string, string> = {};
        for (let i = 0; i < n; i++) parts[`${PROPERTY.lastGoodPrefix}${id}.${i}.${n}`] = text.slice(i * LAST_GOOD.partChars, (i + 1) * LAST_GOOD.partChars);
        fresh.set(id, { key, value, savedAt: t, size: text.length, names: Object.keys(parts), parts });
      }

      const drop = new Set(garbage);
      garbage.length = 0;
      let count = fresh.size;
      // Newest first: once one no longer fits, it and every older one go (oldest out first).
      const others = [...kept.entries()].sort((a, b) => b[1].savedAt - a[1].savedAt);
      let full = false;
      for (const [id, entry] of others) {
        const replaced = fresh.get(id);
        if (replaced) {
          for (const name of entry.names) if (!replaced.names.includes(name)) drop.add(name);
          continue;
        }
        full = full || total + entry.size > LAST_GOOD.maxChars || count + 1 > LAST_GOOD.maxEntries;
        if (full) {
          for (const name of entry.names) drop.add(name);
          kept.delete(id);
          continue;
        }
        total += entry.size;
        count++;
      }

      const values: Record<string, string> = {};
      for (const [id, { parts, ...entry }] of fresh) {
        Object.assign(values, parts);
        kept.set(id, entry);
      }
      try {
        if (Object.keys(values).length > 0) store.setProperties(values);
        // Written before the old parts go: an interrupted call leaves one copy too many, never none.
        for (const name of drop) store.deleteProperty(name);
      } catch {
        // Properties refused (quota or size): the answer in hand is still returned; only the copy is missed.
      }

      if (stale && entries.some((e) => e.key in (stale?.keys ?? {}))) {
        const keys = { ...stale.keys };
        for (const { key } of entries) delete keys[key];
        writeStale(Object.keys(keys).length > 0 ? { ...stale, keys } : null);
      }
    },

    /**
     * Records that these answers were served from the copy because of `reason`. Executions that
     * run at once each write the whole state and the last one wins, so the sidebar's count is
     * approximate during a recalculation; the next failure or answer of a key sets it right.
     */
    markStale(recalled: ReadonlyMap<string, Recalled>, reason: string): void {
      const t = now();
      const keys = { ...(stale?.keys ?? {}) };
      for (const [key, { savedAt }] of recalled) keys[key] = savedAt;
      // Bounded like the copy itself: the most recently saved keys stay.
      const bounded = Object.entries(keys)
        .sort((a, b) => b[1] - a[1])
        .slice(0, LAST_GOOD.maxEntries);
      writeStale({ since: stale?.since ?? t, at: t, reason, keys: Object.fromEntries(bounded) });
    },

    /** Forgets the stale state (a new API address: the old answers are not that server's). */
    clearStale(): void {
      if (stale) writeStale(null);
    },

    stale(): StaleState | null {
      return stale;
    },
  };
}

export type LastGood = ReturnType<typeof createLastGood>;
