/**
 * Reads an operator command's arguments: `--help` or `-h` anywhere asks for help, and a mistake
 * (an option the command does not know, a missing value, an option given twice) comes back as
 * one line that the command prints above its usage.
 *
 * Built on parseArgs' tokens rather than its strict mode, whose errors speak of Node's own rules
 * ("To specify a positional argument starting with a '-', place it at the end…") and end the
 * command before it can say how it is used.
 */
import { parseArgs } from 'node:util';

export interface OptionSpec {
  type: 'string' | 'boolean';
  short?: string;
}

export type OptionSpecs = Readonly<Record<string, OptionSpec>>;

export type OptionValues<T extends OptionSpecs> = { [K in keyof T]?: T[K]['type'] extends 'string' ? string : true };

export interface CommandLine<T extends OptionSpecs> {
  /** The options given, by name; an option not given is absent. */
  values: OptionValues<T>;
  positionals: string[];
  /** `--help` or `-h` was given: the command prints its help and does nothing else. */
  help: boolean;
  /** The first mistake found, in one line, or null. */
  problem: string | null;
}

/** `--plan` and `-h` are options; `-` and `-5` are values. */
const looksLikeOption = (value: string) => /^(--.|-[A-Za-z])/.test(value);

export function readCommandLine<T extends OptionSpecs>(args: readonly string[], options: T): CommandLine<T> {
  const { tokens } = parseArgs({
    args: [...args],
    options: { ...options, help: { type: 'boolean', short: 'h' } },
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  const values: Record<string, string | true> = {};
  const positionals: string[] = [];
  let help = false;
  let problem: string | null = null;
  const report = (text: string) => {
    problem ??= text;
  };

  for (const token of tokens) {
    if (token.kind === 'positional') positionals.push(token.value);
    if (token.kind !== 'option') continue;
    if (token.name === 'help') {
      help = true;
      continue;
    }
    const spec = Object.hasOwn(options, token.name) ? options[token.name] : undefined;
    // parseArgs gives an unknown `-x` the name `x`: it is only this option if `x` is its short form.
    const known = spec !== undefined && (token.rawName === `--${token.name}` || (spec.short !== undefined && token.rawName === `-${spec.short}`));
    if (!spec || !known) {
      report(`unknown option ${token.rawName}`);
      continue;
    }
    const flag = `--${token.name}`;
    if (Object.hasOwn(values, token.name)) report(`${flag} is given twice`);
    if (spec.type === 'boolean') {
      if (token.value !== undefined) report(`${flag} takes no value (got "${token.value}")`);
      values[token.name] = true;
    } else if (token.value === undefined || (!token.inlineValue && looksLikeOption(token.value))) {
      // Without a value of its own, parseArgs would take the next option as the value.
      report(`${flag} needs a value${token.value === undefined ? '' : ` (got the option ${token.value})`}`);
    } else {
      values[token.name] = token.value;
    }
  }
  return { values: values as OptionValues<T>, positionals, help, problem };
}
