import { useState } from "preact/hooks";
import { shareFragment } from "./share.ts";
import { PLAYGROUND_TEXT as T } from "./text.ts";

/** "Share": the program into the address bar's fragment, the link shown and copied. */
export function SharePanel({ code }: { code: () => string }) {
  const [link, setLink] = useState<string | null>(null);
  const [copied, setCopied] = useState(false);
  const share = async () => {
    const fragment = await shareFragment(code());
    // replaceState: sharing is not a navigation, Back should leave the page as before.
    history.replaceState(null, "", fragment);
    const url = location.href;
    setLink(url);
    setCopied(
      await navigator.clipboard?.writeText(url).then(
        () => true,
        () => false,
      ),
    );
  };
  return (
    <div class="share">
      <button type="button" class="secondary" data-testid="share" onClick={() => void share()}>
        {T.share}
      </button>
      {link && (
        <div class="share-link">
          <label for="share-link">{T.shareLabel}</label>
          <input
            id="share-link"
            data-testid="share-link"
            readOnly
            value={link}
            onFocus={(e) => e.currentTarget.select()}
            aria-describedby="share-note"
          />
          <p id="share-note" role="status" class="hint">
            {copied ? T.shareCopied : T.shareCopy}
          </p>
        </div>
      )}
    </div>
  );
}
