/*
 * A sign-in's device as a person recognises it ("Firefox on Windows"), read coarsely from its
 * User-Agent. Order matters: Edge and Opera also say Chrome, Chrome also says Safari, Android
 * also says Linux. Anything unrecognised is shown as the raw header, shortened.
 */

const BROWSERS: [RegExp, string][] = [
  [/\bEdg(e|A|iOS)?\//, "Edge"],
  [/\bOPR\/|\bOpera\b/, "Opera"],
  [/\bFirefox\/|\bFxiOS\//, "Firefox"],
  [/\bChrome\/|\bCriOS\//, "Chrome"],
  [/\bSafari\//, "Safari"],
];

const SYSTEMS: [RegExp, string][] = [
  [/\biPhone|\biPad|\biPod/, "iOS"],
  [/\bAndroid\b/, "Android"],
  [/\bCrOS\b/, "ChromeOS"],
  [/\bWindows\b/, "Windows"],
  [/\bMac OS X\b|\bMacintosh\b/, "macOS"],
  [/\bLinux\b/, "Linux"],
];

const SHOWN_RAW = 80;

const first = (table: [RegExp, string][], ua: string) =>
  table.find(([pattern]) => pattern.test(ua))?.[1];

export function deviceOf(userAgent: string | null): string | null {
  const ua = userAgent?.trim();
  if (!ua) return null;
  const browser = first(BROWSERS, ua);
  const system = first(SYSTEMS, ua);
  if (browser && system) return `${browser} on ${system}`;
  if (browser || system) return browser ?? system ?? null;
  return ua.length > SHOWN_RAW ? `${ua.slice(0, SHOWN_RAW - 1)}…` : ua;
}
