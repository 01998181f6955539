// A regex prefilter: the FTS terms every match of a pattern must contain, so `re:` reads
// only files that can match instead of every file. Conservative by construction: when
// the pattern is not understood (alternation, lookaround, backreferences…) it answers
// undefined and the caller scans everything.

const WORD = /[\p{L}\p{N}_]/u;
const MIN_TERM = 2;

interface Run {
  text: string;
  leftClosed: boolean;
}

/** Whether the atom ending before `i` is made optional (or repeatable) by a quantifier at `i`. */
function quantifierAt(p: string, i: number): 'optional' | 'repeat' | null {
  const c = p[i];
  if (c === '?' || c === '*') return 'optional';
  if (c === '+') return 'repeat';
  if (c === '{') {
    const m = /^\{(\d*)(,\d*)?\}/.exec(p.slice(i));
    if (m) return m[1] === '' || Number(m[1]) === 0 ? 'optional' : 'repeat';
  }
  return null;
}

function skipQuantifier(p: string, i: number): number {
  if (p[i] === '{') {
    const m = /^\{\d*(,\d*)?\}/.exec(p.slice(i));
    if (m) i += m[0].length;
  } else if ('?*+'.includes(p[i] ?? '')) i++;
  if (p[i] === '?') i++; // lazy
  return i;
}

function termsOfRun(run: Run, rightClosed: boolean, out: string[]): void {
  const parts = run.text.toLowerCase().split('_');
  parts.forEach((part, i) => {
    if (part.length < MIN_TERM) return;
    const leftOk = i > 0 || run.leftClosed;
    const rightOk = i < parts.length - 1 || rightClosed;
    if (!leftOk) return;
    out.push(rightOk ? part : `${part}*`);
  });
}

/** FTS terms (`tok` exact, `tok*` prefix) that every match must contain, or undefined. */
export function requiredTerms(pattern: string): string[] | undefined {
  const out: string[] = [];
  let run: Run = { text: '', leftClosed: false };
  const endRun = (rightClosed: boolean, nextLeftClosed: boolean) => {
    if (run.text) termsOfRun(run, rightClosed, out);
    run = { text: '', leftClosed: nextLeftClosed };
  };
  let i = 0;
  while (i < pattern.length) {
    const c = pattern[i];
    if (c === '|') return undefined;
    if (c === '\\') {
      const e = pattern[i + 1] ?? '';
      if (/[1-9kpPuxc0]/.test(e)) return undefined;
      const next = skipQuantifier(pattern, i + 2);
      const q = quantifierAt(pattern, i + 2);
      if ((e === 'b' || e === 's' || e === 'W' || e === 'n' || e === 't' || !/[A-Za-z0-9]/.test(e)) && q !== 'optional')
        endRun(true, true);
      else endRun(false, false);
      i = next;
      continue;
    }
    if (c === '[') {
      let j = i + 1;
      if (pattern[j] === '^') j++;
      if (pattern[j] === ']') j++;
      while (j < pattern.length && pattern[j] !== ']') j += pattern[j] === '\\' ? 2 : 1;
      endRun(false, false);
      i = skipQuantifier(pattern, j + 1);
      continue;
    }
    if (c === '(') {
      if (
        pattern.startsWith('(?<=', i) ||
        pattern.startsWith('(?<!', i) ||
        pattern.startsWith('(?=', i) ||
        pattern.startsWith('(?!', i)
      )
        return undefined;
      let depth = 0;
      let j = i;
      for (; j < pattern.length; j++) {
        if (pattern[j] === '\\') {
          j++;
          continue;
        }
        if (pattern[j] === '[') {
          while (j < pattern.length && pattern[j] !== ']') j += pattern[j] === '\\' ? 2 : 1;
          continue;
        }
        if (pattern[j] === '(') depth++;
        else if (pattern[j] === ')' && --depth === 0) break;
      }
      endRun(false, false);
      i = skipQuantifier(pattern, j + 1);
      continue;
    }
    if (c === '^' || c === '$') {
      endRun(true, true);
      i++;
      continue;
    }
    if (c === '.') {
      endRun(false, false);
      i = skipQuantifier(pattern, i + 1);
      continue;
    }
    const q = quantifierAt(pattern, i + 1);
    if (WORD.test(c)) {
      if (q === 'optional') {
        endRun(false, false);
      } else if (q === 'repeat') {
        run.text += c;
        endRun(false, false);
      } else {
        run.text += c;
      }
    } else if (q === 'optional') {
      endRun(false, false);
    } else {
      endRun(true, true);
    }
    i = q ? skipQuantifier(pattern, i + 1) : i + 1;
  }
  endRun(false, false);
  const unique = [...new Set(out)];
  return unique.length > 0 ? unique : undefined;
}
