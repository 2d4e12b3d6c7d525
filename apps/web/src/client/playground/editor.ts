import { defaultKeymap, history, historyKeymap } from "@codemirror/commands";
import { typescriptLanguage } from "@codemirror/lang-javascript";
import {
  bracketMatching,
  indentOnInput,
  LanguageSupport,
  syntaxHighlighting,
} from "@codemirror/language";
import { Compartment, EditorState } from "@codemirror/state";
import { EditorView, keymap, lineNumbers } from "@codemirror/view";
import { afterFirstPaint } from "../shared/after-first-paint.ts";
import type { Checker } from "./checker.ts";
import { highlightStyle } from "./highlight.ts";
import type { Diagnostic } from "./worker/protocol.ts";

export type EditorOptions = {
  parent: HTMLElement;
  doc: string;
  checker: Checker;
  onChange: (doc: string) => void;
  onRun: () => void;
  /** Each check's answer, with the text it was made for (null: the checker is unavailable). */
  onChecked: (doc: string, diagnostics: Diagnostic[] | null) => void;
};

/**
 * CodeMirror 6 with TypeScript highlighting, then (smart.ts, after the first paint) the
 * compiler's type errors and completions. Only the pieces used are imported (not the
 * `codemirror` basic setup) to keep the page's script small. Tab is left to move focus, so
 * the editor never traps keyboard users; Mod-Enter runs the program, Ctrl-Space completes.
 */
export function createEditor(options: EditorOptions): EditorView {
  const { parent, doc, checker, onChange, onRun, onChecked } = options;
  // Type errors and completions come later, in a chunk of their own (smart.ts).
  const smart = new Compartment();
  const view = new EditorView({
    parent,
    state: EditorState.create({
      doc,
      extensions: [
        lineNumbers(),
        history(),
        indentOnInput(),
        bracketMatching(),
        // The language alone: javascript() would add JSX tag closing and snippets, unused here.
        new LanguageSupport(typescriptLanguage),
        syntaxHighlighting(highlightStyle),
        smart.of([]),
        keymap.of([
          {
            key: "Mod-Enter",
            run: () => {
              onRun();
              return true;
            },
          },
          ...defaultKeymap,
          ...historyKeymap,
        ]),
        // The page's CSP admits CodeMirror's <style> element by this nonce (see security.ts).
        EditorView.cspNonce.of(
          document.querySelector<HTMLMetaElement>('meta[name="style-nonce"]')?.content ?? "",
        ),
        EditorView.contentAttributes.of({
          "data-testid": "code",
          "aria-label": "TypeScript code",
          "aria-describedby": "code-help",
        }),
        EditorView.updateListener.of((update) => {
          if (update.docChanged) onChange(update.state.doc.toString());
        }),
      ],
    }),
  });
  afterFirstPaint(() => {
    void import("./smart.ts").then(({ smartExtensions }) =>
      view.dispatch({ effects: smart.reconfigure(smartExtensions(checker, onChecked)) }),
    );
  });
  return view;
}

export function replaceDoc(view: EditorView, doc: string): void {
  view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: doc } });
}

/** Puts the cursor at `position` and the keyboard in the editor (from the diagnostics list). */
export function moveTo(view: EditorView, position: number): void {
  view.dispatch({
    selection: { anchor: Math.min(position, view.state.doc.length) },
    scrollIntoView: true,
  });
  view.focus();
}
