import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';
import { describe } from 'vitest';

/** Debian's Chromium (`apt-get install chromium`); never a browser build downloaded by Playwright. */
export const CHROMIUM_PATH = '/usr/bin/chromium';

const missing = !existsSync(CHROMIUM_PATH);
if (missing && process.env.CI) {
  // In CI a skipped browser suite would be a test that cannot fail: .ci/run installs the package.
  throw new Error(`${CHROMIUM_PATH} is missing; CI must run the browser tests (apt-get install chromium)`);
}
if (missing) {
  console.warn(`Browser tests skipped: ${CHROMIUM_PATH} is not installed (apt-get install chromium).`);
}

/**
 * How long a test waits for the page to show what it expects: a deadline, not a threshold (the wait ends
 * as soon as it shows), sized for a loaded machine where Chromium renders slowly.
 */
export const LOCATOR_DEADLINE_MS = 120_000;

/** `describe`, or `describe.skip` on a machine without Chromium (outside CI only, see above). */
export const describeInChromium = missing ? describe.skip : describe;

/** A headless Chromium with a fresh, throw-away profile (Playwright makes one per launch). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
    ],
  });
}
