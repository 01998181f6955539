// Shell words of one command line, as far as a hint needs them: quotes, escapes, pipes,
// `&&`/`||`/`;`/`&`, redirections and subshell parentheses. Expansions are never
// performed; a word that holds one is marked so no suggestion is built from it.

export interface Word {
  /** The word after quote removal. */
  readonly text: string;
  /** It holds `$VAR`, `$(…)`, `${…}` or backticks: its value is unknown here. */
  readonly dynamic: boolean;
  /** It holds an unquoted `*`, `?` or `[`: the shell may expand it into file names. */
  readonly glob: boolean;
  /** It starts with an unquoted `~` (the home directory). */
  readonly tilde: boolean;
}

export interface SimpleCommand {
  readonly words: readonly Word[];
  /** Its stdin is redirected from a file or a here-string (`< f`, `<<< s`). */
  readonly stdinRedirected: boolean;
}

/** Commands joined by `|`: each one's stdin is the previous one's stdout. */
export type Pipeline = readonly SimpleCommand[];

interface Builder {
  text: string;
  dynamic: boolean;
  glob: boolean;
  tilde: boolean;
  started: boolean;
}

const fresh = (): Builder => ({ text: '', dynamic: false, glob: false, tilde: false, started: false });

/** The index just past a backtick run, or the parentheses of a `$(…)`, starting at `i`; -1 when it never closes. */
function skipSubstitution(line: string, i: number): number {
  if (line[i] === '`') {
    const end = line.indexOf('`', i + 1);
    return end < 0 ? -1 : end + 1;
  }
  // `(` … `)` of a `$(`, with nesting; quotes inside are skipped whole.
  let depth = 0;
  for (let j = i; j < line.length; j++) {
    const c = line[j];
    if (c === '\\') j++;
    else if (c === "'") {
      j = line.indexOf("'", j + 1);
      if (j < 0) return -1;
    } else if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return j + 1;
  }
  return -1;
}

/**
 * The pipelines of a command line, in order, or undefined when it cannot be read with
 * confidence (an unclosed quote or substitution, a here-document).
 */
export function parseCommandLine(line: string): Pipeline[] | undefined {
  const pipelines: Pipeline[] = [];
  let pipeline: SimpleCommand[] = [];
  let words: Word[] = [];
  let stdinRedirected = false;
  let w = fresh();
  let dropNextWord = false;

  const endWord = () => {
    if (w.started) {
      if (dropNextWord) dropNextWord = false;
      else words.push({ text: w.text, dynamic: w.dynamic, glob: w.glob, tilde: w.tilde });
    }
    w = fresh();
  };
  const endCommand = () => {
    endWord();
    if (words.length > 0) pipeline.push({ words, stdinRedirected });
    words = [];
    stdinRedirected = false;
  };
  const endPipeline = () => {
    endCommand();
    if (pipeline.length > 0) pipelines.push(pipeline);
    pipeline = [];
  };

  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) return undefined;
      w.text += line.slice(i + 1, end);
      w.started = true;
      i = end;
    } else if (c === '"') {
      w.started = true;
      let j = i + 1;
      for (; j < line.length && line[j] !== '"'; j++) {
        const d = line[j];
        if (d === '\\' && j + 1 < line.length && '$`"\\\n'.includes(line[j + 1])) {
          if (line[j + 1] !== '\n') w.text += line[j + 1];
          j++;
        } else if (d === '`' || (d === '$' && j + 1 < line.length && /[({A-Za-z0-9_@*#?$!-]/.test(line[j + 1]))) {
          const end = line[j + 1] === '(' || d === '`' ? skipSubstitution(line, d === '`' ? j : j + 1) : -2;
          if (end === -1) return undefined;
          w.dynamic = true;
          if (end >= 0) {
            w.text += line.slice(j, end);
            j = end - 1;
          } else w.text += d;
        } else w.text += d;
      }
      if (j >= line.length) return undefined;
      i = j;
    } else if (c === '\\') {
      if (i + 1 < line.length && line[i + 1] !== '\n') {
        w.text += line[i + 1];
        w.started = true;
      }
      i++;
    } else if (c === '$' && i + 1 < line.length && /[({A-Za-z0-9_@*#?$!-]/.test(line[i + 1])) {
      w.started = true;
      w.dynamic = true;
      if (line[i + 1] === '(') {
        const end = skipSubstitution(line, i + 1);
        if (end < 0) return undefined;
        w.text += line.slice(i, end);
        i = end - 1;
      } else w.text += c;
    } else if (c === '`') {
      const end = skipSubstitution(line, i);
      if (end < 0) return undefined;
      w.started = true;
      w.dynamic = true;
      w.text += line.slice(i, end);
      i = end - 1;
    } else if (c === ' ' || c === '\t') {
      endWord();
    } else if (c === '#' && !w.started) {
      const nl = line.indexOf('\n', i);
      if (nl < 0) break;
      i = nl - 1;
    } else if (c === '\n' || c === ';' || c === '(' || c === ')') {
      endPipeline();
    } else if (c === '|') {
      if (line[i + 1] === '|') {
        endPipeline();
        i++;
      } else {
        if (line[i + 1] === '&') i++;
        endCommand();
      }
    } else if (c === '&' && line[i + 1] !== '>') {
      endPipeline();
      if (line[i + 1] === '&') i++;
    } else if (c === '<' || c === '>' || c === '&') {
      // A redirection: `2>` drops its fd number, `>&2` names no file, every other form
      // takes the next word as its target.
      if (/^\d+$/.test(w.text) && !w.dynamic && w.started) w = fresh();
      endWord();
      let op = c;
      while (i + 1 < line.length && '<>&|'.includes(line[i + 1])) op += line[++i];
      if (op === '<<' || op === '<<-') return undefined;
      if (op.startsWith('<')) stdinRedirected = true;
      if (op.endsWith('&') && /[\d-]/.test(line[i + 1] ?? '')) {
        while (i + 1 < line.length && /[\d-]/.test(line[i + 1])) i++;
      } else dropNextWord = true;
    } else {
      if (!w.started && c === '~') w.tilde = true;
      if (c === '*' || c === '?' || c === '[') w.glob = true;
      w.text += c;
      w.started = true;
    }
  }
  endPipeline();
  return pipelines;
}

/** The words' texts. */
export function texts(words: readonly Word[]): string[] {
  return words.map((x) => x.text);
}
