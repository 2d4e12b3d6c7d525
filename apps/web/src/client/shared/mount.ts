import { type ComponentChild, render } from "preact";

/** Renders a page's island into the #app element of the server-rendered shell. */
export function mount(node: ComponentChild): void {
  const root = document.getElementById("app");
  if (!root) throw new Error("the page has no #app element");
  render(node, root);
}
