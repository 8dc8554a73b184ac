import { mkdir } from 'node:fs/promises';
import type { Page } from 'playwright-core';

/** `artifacts/` at the repository root (gitignored): screenshots a person looks at. */
export const ARTIFACTS_DIR = new URL('../../../../../artifacts/', import.meta.url);

/** What the game page shows once it has read its session. */
export async function readShownSession(page: Page) {
  await page.locator('#nick').waitFor({ state: 'visible' });
  const text = (selector: string) => page.locator(selector).textContent();
  return {
    heading: await text('h1'),
    nick: await text('#nick'),
    targetLabel: await text('#target-label'),
    target: await text('#target'),
    lang: await text('#lang'),
    timeLeft: await text('#time-left'),
    status: await text('#status'),
  };
}

export async function screenshot(page: Page, name: string): Promise<string> {
  await mkdir(ARTIFACTS_DIR, { recursive: true });
  const path = new URL(name, ARTIFACTS_DIR).pathname;
  await page.screenshot({ path, fullPage: true });
  return path;
}
