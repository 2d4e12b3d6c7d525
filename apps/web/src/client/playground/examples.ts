/** Starting points, each showing one kind of answer the runner gives. */
export const EXAMPLES = [
  {
    name: "Hello, types",
    code: `type Point = { x: number; y: number };
const distance = (a: Point, b: Point): number => Math.hypot(a.x - b.x, a.y - b.y);
console.log("distance:", distance({ x: 0, y: 0 }, { x: 3, y: 4 }));`,
  },
  {
    name: "Generics",
    code: `function largest<T>(items: T[], size: (item: T) => number): T | undefined {
  return items.reduce<T | undefined>((best, item) =>
    best === undefined || size(item) > size(best) ? item : best, undefined);
}
console.log(largest(["fig", "banana", "kiwi"], (s) => s.length));`,
  },
  {
    name: "A type error (it still runs)",
    code: `const total: number = "12" + 30;
console.log(total, typeof total);`,
  },
  {
    name: "Throws",
    code: `function parseAge(text: string): number {
  const age = Number(text);
  if (!Number.isInteger(age)) throw new TypeError(\`not an age: \${text}\`);
  return age;
}
console.log(parseAge("41"));
console.log(parseAge("forty-two"));`,
  },
  {
    name: "Runs forever (times out)",
    code: `let n = 0;
while (true) n++;`,
  },
  {
    name: "Blocked capability",
    code: `const res = await fetch("https://example.com");
console.log(res.status);`,
  },
] as const;
