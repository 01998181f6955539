// One execution, two views: the MCP front end shows the model the lines text and hands its
// client the structured form, and both must come from the same result set.
import type { OutputFormat } from '@trufflepig/render';

/** The two choices a renderer takes from a command's options. */
export interface RenderChoice {
  /** JSON when not given (the programmatic API's default; the CLI sets lines). */
  readonly format?: OutputFormat;
  /** Also render the answer as JSON from the same data under the same budget. */
  readonly alsoJson?: boolean;
}

/** A successful answer: stdout within the budget, and the JSON view when asked for. */
export interface RenderedAnswer {
  readonly stdout: string;
  readonly stderr: string;
  readonly exitCode: 0;
  /** The JSON rendering of the same answer, when `alsoJson` asked for it and stdout is lines. */
  readonly json?: string;
}

/**
 * An answer rendered in the chosen format, plus its JSON rendering when `alsoJson` asks for
 * it. Each view is fitted to the budget on its own, so the JSON view may hold fewer hits
 * than the lines view (a prefix of them, with the same handles).
 */
export function renderedResult(
  choice: RenderChoice,
  render: (format: OutputFormat) => { readonly stdout: string; readonly stderr?: string },
): RenderedAnswer {
  const format = choice.format ?? 'json';
  const out = render(format);
  const json = choice.alsoJson === true && format !== 'json' ? render('json').stdout : undefined;
  return { stdout: out.stdout, stderr: out.stderr ?? '', exitCode: 0, ...(json !== undefined ? { json } : {}) };
}
