/**
 * One sample's value from Prometheus' text format: the first line of `name` carrying every one
 * of `labels` (written `key="value"`, in any order), as the text says it, or undefined.
 */
export function metricValue(text: string, name: string, ...labels: string[]): string | undefined {
  return text
    .split("\n")
    .find((line) => line.startsWith(`${name}{`) && labels.every((label) => line.includes(label)))
    ?.split(" ")
    .at(-1);
}
