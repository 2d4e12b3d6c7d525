import { useEffect, useRef } from "preact/hooks";
import { t } from "../../i18n/use.ts";

/** A signing secret, shown this once (the API never shows it again): copy it now. */
export function SecretOnce({ secret, url }: { secret: string; url: string }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => box.current?.focus(), [secret]);
  return (
    <div class="panel notice" role="status" tabIndex={-1} ref={box} data-testid="webhook-secret">
      <h2>{t("office.webhook.secretTitle")}</h2>
      <p>{t("office.webhook.secretText", { url })}</p>
      <p>
        <code class="secret">{secret}</code>
      </p>
    </div>
  );
}
