import { autocompletion, closeBrackets, completionKeymap } from "@codemirror/autocomplete";
import { type Diagnostic as LintDiagnostic, linter } from "@codemirror/lint";
import { type Extension, Prec } from "@codemirror/state";
import { keymap } from "@codemirror/view";
import type { Checker } from "./checker.ts";
import type { Diagnostic } from "./worker/protocol.ts";

/** How long typing must pause before the program is checked again. */
const CHECK_DELAY_MS = 300;

/**
 * The compiler's type errors underlined as you type, and its completions, both from the worker
 * (checker.ts). A chunk of its own, loaded after the first paint with the worker: the page's
 * first script stays within its budget and the editor is usable before these arrive.
 */
export function smartExtensions(
  checker: Checker,
  onChecked: (doc: string, diagnostics: Diagnostic[] | null) => void,
): Extension {
  const typeErrors = linter(
    async (view) => {
      const text = view.state.doc.toString();
      const found = await checker.check(text);
      onChecked(text, found);
      const length = view.state.doc.length;
      return (found ?? []).map(
        (d): LintDiagnostic => ({
          from: Math.min(d.from, length),
          // A zero-width problem (a missing token) still needs a character to underline.
          to: Math.min(Math.max(d.to, d.from + 1), length),
          severity: d.severity,
          message: d.message,
          source: `TypeScript ${d.code}`,
        }),
      );
    },
    { delay: CHECK_DELAY_MS },
  );
  const completions = autocompletion({
    override: [
      async (context) => {
        const word = context.matchBefore(/[\w$]+$/);
        const afterDot = context.matchBefore(/\.$/);
        if (!context.explicit && !word && !afterDot) return null;
        const found = await checker.complete(context.state.doc.toString(), context.pos);
        if (!found || found.options.length === 0) return null;
        return { from: found.from, options: found.options, validFor: /^[\w$]*$/ };
      },
    ],
  });
  // Ahead of the default keymap, so Enter picks a completion while the list is open.
  return [typeErrors, completions, closeBrackets(), Prec.high(keymap.of(completionKeymap))];
}
