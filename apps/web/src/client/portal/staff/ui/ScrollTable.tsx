import type { ComponentChildren } from "preact";

/**
 * A table that scrolls sideways on a narrow screen rather than squeezing. The scrolling box
 * takes the focus (Tab, then the arrow keys scroll it) and is named for screen readers: a
 * region only a mouse could scroll fails WCAG 2.1.1 (axe's scrollable-region-focusable).
 */
export function ScrollTable({ label, children }: { label: string; children: ComponentChildren }) {
  return (
    // A named <section> is a region landmark; it scrolls, so it must take the focus (WCAG 2.1.1).
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard
    <section class="table-scroll" aria-label={label} tabIndex={0}>
      {children}
    </section>
  );
}
