/**
 * The game's keys, read on the whole page: Space and the arrows work as soon as it opens, with
 * no click on the canvas first. Keys meant for a control stay with it: nothing is taken from a
 * text field or a select, and Space and Enter still press a focused button or follow a link.
 */
export type GameKeys = {
  steer: (side: "left" | "right", down: boolean) => void;
  primary: () => void;
  pause: () => void;
  restart: () => void;
  mute: () => void;
  /** Any key counts as the gesture browsers ask for before sound may start. */
  gesture: () => void;
};

const LEFT = new Set(["ArrowLeft", "a", "A"]);
const RIGHT = new Set(["ArrowRight", "d", "D"]);
const TYPING = "input, textarea, select, [contenteditable]";
const PRESSABLE = "button, a[href], summary";

export function listenForKeys(keys: GameKeys): () => void {
  const onKey = (down: boolean) => (event: KeyboardEvent) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const target = event.target instanceof Element ? event.target : null;
    if (target?.closest(TYPING)) return;
    const { key } = event;
    if (LEFT.has(key) || RIGHT.has(key)) {
      keys.steer(LEFT.has(key) ? "left" : "right", down);
    } else if (!down) return;
    else if (key === " " || key === "Enter") {
      if (target?.closest(PRESSABLE)) return;
      keys.primary();
    } else if (key === "p" || key === "P" || key === "Escape") keys.pause();
    else if (key === "r" || key === "R") keys.restart();
    else if (key === "m" || key === "M") keys.mute();
    else return;
    keys.gesture();
    // The page must not scroll while the arrows steer or Space plays.
    event.preventDefault();
  };
  const down = onKey(true);
  const up = onKey(false);
  window.addEventListener("keydown", down);
  window.addEventListener("keyup", up);
  return () => {
    window.removeEventListener("keydown", down);
    window.removeEventListener("keyup", up);
  };
}
