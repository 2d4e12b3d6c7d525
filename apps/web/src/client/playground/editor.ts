import { defaultKeymap, history, historyKeymap } from "@codemirror/commands";
import { javascript } from "@codemirror/lang-javascript";
import { bracketMatching, indentOnInput, syntaxHighlighting } from "@codemirror/language";
import { EditorState } from "@codemirror/state";
import { EditorView, keymap, lineNumbers } from "@codemirror/view";
import { highlightStyle } from "./highlight.ts";

export type EditorOptions = {
  parent: HTMLElement;
  doc: string;
  onChange: (doc: string) => void;
  onRun: () => void;
};

/**
 * CodeMirror 6 with TypeScript highlighting. Only the pieces used are imported (not the
 * `codemirror` basic setup) to keep the page's script small. Tab is left to move focus, so
 * the editor never traps keyboard users; Mod-Enter runs the program.
 */
export function createEditor({ parent, doc, onChange, onRun }: EditorOptions): EditorView {
  return new EditorView({
    parent,
    state: EditorState.create({
      doc,
      extensions: [
        lineNumbers(),
        history(),
        indentOnInput(),
        bracketMatching(),
        javascript({ typescript: true }),
        syntaxHighlighting(highlightStyle),
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
}

export function replaceDoc(view: EditorView, doc: string): void {
  view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: doc } });
}
