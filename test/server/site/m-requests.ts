/**
 * Reads a Power Query (M) text the way the tests need it: the requests it makes (the URL each
 * Web.Contents call builds from the base, RelativePath and Query, and its headers) and the
 * columns it types. Only the shape the site hands out is understood: every value a request sends
 * is a text literal or a step bound to one; anything else fails the reading, loudly.
 */
export interface MRequest {
  url: string;
  headers: Record<string, string>;
  dates: string[];
  numbers: string[];
}

/** The text without `//` comments (a `//` inside a string literal, as in a URL, stays). */
function withoutComments(m: string): string {
  let out = '';
  let inString = false;
  for (let i = 0; i < m.length; i++) {
    const c = m[i];
    if (c === '"') inString = !inString; // "" inside a string toggles twice: still inside
    if (!inString && c === '/' && m[i + 1] === '/') {
      while (i < m.length && m[i] !== '\n') i++;
      out += '\n';
      continue;
    }
    out += c;
  }
  return out;
}

const unquote = (literal: string) => literal.slice(1, -1).replace(/""/g, '"');

function resolve(expression: string, bindings: ReadonlyMap<string, string>): string {
  const e = expression.trim();
  if (/^"(?:[^"]|"")*"$/.test(e)) return unquote(e);
  const bound = bindings.get(e);
  if (bound === undefined) throw new Error(`"${e}" is neither a text literal nor a step bound to one`);
  return bound;
}

const names = (list: string) => [...list.matchAll(/"((?:[^"]|"")*)"/g)].map((m) => (m[1] ?? '').replace(/""/g, '"'));

/** The requests of `m`, with `parameters` (Power Query parameters such as the key) by name. */
export function requestsOf(m: string, parameters: Record<string, string>): MRequest[] {
  const text = withoutComments(m);
  const bindings = new Map<string, string>(Object.entries(parameters));
  for (const match of text.matchAll(/^\s*(\w+) = ("(?:[^"]|"")*"),?\s*$/gm)) bindings.set(match[1] ?? '', unquote(match[2] ?? '""'));
  const calls = [
    ...text.matchAll(
      /Web\.Contents\(([^,]+), \[\s*RelativePath = ("[^"]*"),\s*Query = \[([^\]]*)\],\s*Headers = \[((?:[^\]"]|"[^"]*")*)\]\s*\]\),\s*(\{[^}]*\}),\s*(\{[^}]*\})/g,
    ),
  ];
  if (calls.length !== (text.match(/Web\.Contents\(/g) ?? []).length) throw new Error('a Web.Contents call is not in the shape this reader knows');
  return calls.map(([, base, path, query, headers, dates, numbers]) => {
    const params = new URLSearchParams();
    for (const field of (query ?? '').split(',')) {
      const [name, value] = field.split(' = ');
      if (!name || value === undefined) throw new Error(`unreadable Query field "${field}"`);
      params.append(name.trim(), resolve(value, bindings));
    }
    const headerRecord: Record<string, string> = {};
    for (const field of (headers ?? '').split(',')) {
      const match = /^\s*#?"?([\w-]+)"? = (.+)$/.exec(field);
      if (!match) throw new Error(`unreadable header "${field}"`);
      headerRecord[match[1] ?? ''] = resolve(match[2] ?? '', bindings);
    }
    return {
      url: `${resolve(base ?? '', bindings)}${unquote(path ?? '""')}?${params}`,
      headers: headerRecord,
      dates: names(dates ?? ''),
      numbers: names(numbers ?? ''),
    };
  });
}
