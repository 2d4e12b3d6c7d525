type FieldProps = {
  id: string;
  label: string;
  /** The API's message for this field, shown under it and tied to it for screen readers. */
  error?: string;
  hint?: string;
  /** A textarea of this many rows instead of an input. */
  rows?: number;
  value: string;
  onInput: (event: Event) => void;
  "data-testid"?: string;
  type?: "text" | "email" | "password" | "tel";
  autocomplete?: string;
  required?: boolean;
  maxLength?: number;
  inputMode?: "numeric" | "text";
};

/** A labelled input (or textarea) with its hint and error. */
export function Field({ id, label, error, hint, rows, ...input }: FieldProps) {
  const described = [hint ? `${id}-hint` : "", error ? `${id}-error` : ""]
    .filter(Boolean)
    .join(" ");
  const common = {
    id,
    "aria-invalid": error ? true : undefined,
    "aria-describedby": described || undefined,
    value: input.value,
    onInput: input.onInput,
    maxLength: input.maxLength,
    "data-testid": input["data-testid"],
  };
  return (
    <div class="field">
      <label for={id}>{label}</label>
      {hint && (
        <p class="hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      {rows ? (
        <textarea {...common} rows={rows} />
      ) : (
        <input
          {...common}
          // Preact types each input type apart (a union it cannot take as one prop); all are text-like.
          type={(input.type ?? "text") as "text"}
          autocomplete={input.autocomplete}
          required={input.required}
          inputMode={input.inputMode}
        />
      )}
      {error && (
        <p class="field-error" id={`${id}-error`}>
          {error}
        </p>
      )}
    </div>
  );
}
