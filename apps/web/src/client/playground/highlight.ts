import { HighlightStyle } from "@codemirror/language";
import { tags as t } from "@lezer/highlight";

/**
 * TypeScript colours that keep at least 4.5:1 against the white editor (WCAG AA; CodeMirror's
 * default style has several that do not, which axe reports).
 */
export const highlightStyle = HighlightStyle.define([
  { tag: [t.keyword, t.modifier, t.controlKeyword, t.operatorKeyword], color: "#7a1fa2" },
  { tag: [t.string, t.special(t.string), t.regexp], color: "#a31515" },
  { tag: [t.number, t.bool, t.null, t.atom], color: "#0b6b3a" },
  { tag: t.comment, color: "#505a66", fontStyle: "italic" },
  { tag: [t.typeName, t.className, t.namespace], color: "#0f5d78" },
  { tag: [t.definition(t.variableName), t.function(t.variableName)], color: "#00529b" },
  { tag: t.propertyName, color: "#6a4400" },
  { tag: t.invalid, color: "#a3161a", textDecoration: "underline" },
]);
