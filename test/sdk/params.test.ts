/**
 * The SDK's parameter types are generated from the server's route list (sdk/scripts): the
 * checked-in file must be exactly what the generator writes from today's routes, and the
 * generator must type what it meets the way the server reads it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { currency, date, decimalString, flag, integer, oneOf } from '../../server/http/params';
import { defineRoute, type Route } from '../../server/http/route';
import { GENERATE_COMMAND, PARAMS_FILE, renderParams } from '../../sdk/scripts/params/render';
import { routeList, standInDeps } from '../../sdk/scripts/params/route-list';

const ROOT = path.resolve(__dirname, '../..');

function route(path: string, query: Record<string, z.ZodType>): Route {
  return defineRoute({ path, tag: 'Test', access: 'key', summary: 'A test route', query, response: z.unknown(), handle: async () => null });
}

/** The generated body of one route in `RouteParams`, from its path to the closing brace. */
function typeOf(text: string, path: string): string {
  const start = text.indexOf(`  '${path}': `);
  if (start < 0) throw new Error(`${path} is not in the generated text`);
  const end = text.indexOf('\n  };', start);
  return text.slice(start, end < 0 ? undefined : end + 5);
}

describe('the checked-in parameter types', () => {
  it(`${PARAMS_FILE} is what the generator writes from the current routes (if not, run: ${GENERATE_COMMAND})`, () => {
    const checkedIn = fs.readFileSync(path.join(ROOT, PARAMS_FILE), 'utf8');
    expect(checkedIn).toBe(renderParams(routeList()));
  });

  it('covers the routes the client calls, with their bounds and defaults', () => {
    const text = renderParams(routeList());
    expect(typeOf(text, '/exchange-rate/history')).toContain('An integer from 1 to 365; default 30.');
    expect(typeOf(text, '/exchange-rate/history')).toContain('days?: number;');
    expect(typeOf(text, '/exchange-rate/range')).toMatch(/from: DateInput;[\s\S]*to: DateInput;/);
    expect(typeOf(text, '/banking/best')).toContain("operation: 'buy' | 'sell';");
    expect(typeOf(text, '/insights')).toContain("locale?: 'es' | 'en';");
  });
});

describe('the generator', () => {
  it('writes names, optional and required parameters, literal unions, bounds and defaults', () => {
    const text = renderParams([
      route('/things', {
        count: integer(2, 40, 'How many things.', 10),
        size: integer(1, 9, 'How big.').optional(),
        kind: oneOf(['small', 'large'] as const, 'Which kind.', 'small'),
        side: oneOf(['left', 'right'] as const, 'Which side.'),
        'from-day': date('First day.'),
        money: currency('Which money.').optional(),
        amount: decimalString('How much.', 'a number'),
        label: z.string().meta({ description: 'Any text.' }).optional(),
      }),
      route('/nothing', {}),
    ]);
    expect(typeOf(text, '/things')).toBe(
      [
        "  '/things': {",
        '    /**',
        '     * How many things.',
        '     * An integer from 2 to 40; default 10.',
        '     */',
        '    count?: number;',
        '    /**',
        '     * How big.',
        '     * An integer from 1 to 9.',
        '     */',
        '    size?: number;',
        '    /**',
        '     * Which kind.',
        '     * Default `small`.',
        '     */',
        "    kind?: 'small' | 'large';",
        '    /** Which side. */',
        "    side: 'left' | 'right';",
        '    /**',
        '     * First day.',
        '     * A `YYYY-MM-DD` day, or a `Date` (sent as its calendar day in Costa Rica).',
        '     */',
        "    'from-day': DateInput;",
        '    /** Which money. */',
        "    money?: 'USD' | 'CRC';",
        '    /**',
        '     * How much.',
        '     * A number, or a numeral string sent exactly as written.',
        '     */',
        '    amount: number | string;',
        '    /** Any text. */',
        '    label?: string;',
        '  };',
      ].join('\n'),
    );
    expect(text).toContain("  /** A test route (`GET /nothing`). */\n  '/nothing': Record<string, never>;");
    expect(text).toContain("  '/things': ['count', 'size', 'kind', 'side', 'from-day', 'money', 'amount', 'label'],");
    expect(text).toContain("  '/nothing': [],");
  });

  it('types a yes-or-no parameter as a boolean (the client sends String(value): true or false), and only that enumeration', () => {
    const text = renderParams([route('/flags', { on: flag('Whether it is on.'), mode: oneOf(['true', 'maybe'] as const, 'Not a flag.') })]);
    expect(typeOf(text, '/flags')).toContain('     * Whether it is on.\n     * Default `false`.\n     */\n    on?: boolean;');
    expect(typeOf(text, '/flags')).toContain("    mode: 'true' | 'maybe';");
    expect(typeOf(renderParams(routeList()), '/exchange-rate/range')).toContain('inverse?: boolean;');
  });

  it('keeps a description from ending its comment early', () => {
    const text = renderParams([route('/odd', { q: z.string().meta({ description: 'Globs like a/*/b or x*/y.' }) })]);
    expect(text).toContain('/** Globs like a/*\\/b or x*\\/y. */');
  });

  it('refuses what it cannot type rather than writing unknown', () => {
    expect(() => renderParams([route('/flags', { on: z.boolean() })])).toThrow('/flags "on": no TypeScript type for the JSON Schema {"$schema"');
    expect(() => renderParams([route('/a', {}), route('/a', {})])).toThrow('Two routes share the path /a');
  });

  it('builds the routes with stand-in deps that refuse to be used', () => {
    expect(routeList().map((r) => r.path)).toContain('/exchange-rate/history');
    const deps = standInDeps<{ rates: { latest(): unknown } }>();
    // Destructuring is what factories do; calling into a dependency is a handler's work.
    const { rates } = deps;
    expect(() => rates.latest()).toThrow('Route factories must not use their deps while building routes (deps.rates.latest was read)');
  });
});
