/**
 * The site end to end in Chromium, through the real gateway to the real APIs. Skipped, with the
 * reason in the test names and on stderr, when /usr/bin/chromium is missing; the runner's cases
 * likewise when bubblewrap is.
 */
import { afterAll, beforeAll, describe } from "bun:test";
import { mkdirSync } from "node:fs";
import { benchTests } from "./bench.ts";
import { hasBubblewrap, hasChromium, launch, NO_CHROMIUM, SCREENSHOT_DIR } from "./chromium.ts";
import { gameTests } from "./game.ts";
import { pageTests } from "./pages.ts";
import { checkerFailureTests, playgroundTests } from "./playground.ts";
import { LIMITS, type Site } from "./site.ts";
import { type Stack, startStack } from "./stack.ts";

const NO_BWRAP =
  "skipped: bubblewrap is missing, the runner runs no program (apt-get install -y bubblewrap)";
if (!hasChromium) console.warn(`browser tests ${NO_CHROMIUM}`);
else if (!hasBubblewrap) console.warn(`playground browser tests ${NO_BWRAP}`);

describe.skipIf(!hasChromium)(
  hasChromium ? "the site in Chromium" : `the site in Chromium (${NO_CHROMIUM})`,
  () => {
    let stack: Stack | undefined;
    let browser: Awaited<ReturnType<typeof launch>> | undefined;
    let site: Site | undefined;
    const current = (): Site => {
      if (!site) throw new Error("the stack or the browser did not start");
      return site;
    };

    beforeAll(async () => {
      if (!hasChromium) return;
      mkdirSync(SCREENSHOT_DIR, { recursive: true });
      stack = await startStack({
        env: {
          leaderboard: { LEADERBOARD_RATE_LIMIT: String(LIMITS.leaderboard) },
          bench: { BENCH_RATE_LIMIT: String(LIMITS.bench) },
          // One warm sandbox is enough for one browser; the machine's cores stay for the rest.
          runner: { RUNNER_POOL_SIZE: "1" },
        },
      });
      browser = await launch();
      site = { base: stack.base, context: browser.context };
    }, 120_000);

    afterAll(async () => {
      await browser?.close();
      await stack?.stop();
    });

    pageTests(current);
    gameTests(current);
    benchTests(current);
    describe.skipIf(!hasBubblewrap)(
      hasBubblewrap ? "playground" : `playground (${NO_BWRAP})`,
      () => {
        playgroundTests(current);
        checkerFailureTests(current);
      },
    );
  },
);
