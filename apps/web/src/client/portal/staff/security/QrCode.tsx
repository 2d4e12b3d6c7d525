import { encode } from "uqr";

/**
 * A QR code drawn in the page as SVG (one path of dark modules), so the otpauth:// URI with its
 * secret never leaves the browser for an image service. The encoder is `uqr` (unjs, MIT, no
 * dependencies); the drawing is ours: a quiet zone of 4 modules, crisp edges, black on white.
 */
export function QrCode({ text, label }: { text: string; label: string }) {
  const { data, size } = encode(text, { ecc: "M", border: 4 });
  let path = "";
  data.forEach((row, y) => {
    row.forEach((dark, x) => {
      if (dark) path += `M${x} ${y}h1v1h-1z`;
    });
  });
  return (
    <svg
      class="qr"
      viewBox={`0 0 ${size} ${size}`}
      width={size * 5}
      height={size * 5}
      role="img"
      aria-label={label}
      shape-rendering="crispEdges"
      data-testid="mfa-qr"
      data-modules={size}
    >
      <rect width={size} height={size} fill="#fff" />
      <path d={path} fill="#000" />
    </svg>
  );
}
