// Option parsing for the search tools the hook reads (grep, rg, git grep, fd): short
// clusters (`-rni`, `-A3`), long options with `=` or a separate value, `--`, options
// after operands. An option the table does not know makes the whole command unreadable:
// guessing whether it takes a value could turn its value into the pattern.
import type { Word } from './shell-words';

export interface OptionTable {
  /** Short options without a value, as one string of letters. */
  readonly flags: string;
  /** Short options that take a value. */
  readonly valued: string;
  /** Long options without a value (and those whose value is optional, given only with `=`). */
  readonly longFlags: ReadonlySet<string>;
  readonly longValued: ReadonlySet<string>;
  /** `-5` means `-C 5` (grep, git grep). */
  readonly numericContext?: boolean;
}

export interface ParsedOption {
  /** `-i` or `--ignore-case`. */
  readonly name: string;
  readonly value?: string;
}

export interface ParsedArgs {
  readonly options: readonly ParsedOption[];
  readonly operands: readonly Word[];
}

/** The options and operands of `words` (the command name excluded), or undefined when an option is unknown or a value is missing or dynamic. */
export function parseArgs(words: readonly Word[], table: OptionTable): ParsedArgs | undefined {
  const options: ParsedOption[] = [];
  const operands: Word[] = [];
  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    const a = w.text;
    if (a === '--') {
      operands.push(...words.slice(i + 1));
      break;
    }
    if (!a.startsWith('-') || a === '-') {
      operands.push(w);
      continue;
    }
    if (w.dynamic) return undefined;
    if (a.startsWith('--')) {
      const eq = a.indexOf('=');
      const name = eq > 0 ? a.slice(0, eq) : a;
      if (table.longValued.has(name)) {
        if (eq > 0) options.push({ name, value: a.slice(eq + 1) });
        else {
          const next = words[++i];
          if (next === undefined || next.dynamic) return undefined;
          options.push({ name, value: next.text });
        }
      } else if (table.longFlags.has(name)) options.push(eq > 0 ? { name, value: a.slice(eq + 1) } : { name });
      else return undefined;
      continue;
    }
    if (table.numericContext && /^-\d+$/.test(a)) {
      options.push({ name: '-C', value: a.slice(1) });
      continue;
    }
    for (let j = 1; j < a.length; j++) {
      const c = a[j];
      if (table.valued.includes(c)) {
        const rest = a.slice(j + 1);
        if (rest !== '') options.push({ name: `-${c}`, value: rest });
        else {
          const next = words[++i];
          if (next === undefined || next.dynamic) return undefined;
          options.push({ name: `-${c}`, value: next.text });
        }
        break;
      }
      if (!table.flags.includes(c)) return undefined;
      options.push({ name: `-${c}` });
    }
  }
  return { options, operands };
}

export const longSet = (names: string): ReadonlySet<string> =>
  new Set(
    names
      .split(/\s+/)
      .filter(Boolean)
      .map((n) => `--${n}`),
  );
