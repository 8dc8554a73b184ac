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

/**
 * The page's address once it has read its session: the launch URL without `auth`, with the page's key
 * (`frame=`) and its client (`client=`) in its place (docs/integration.md, "Embedding in an iframe").
 */
export function addressWithoutToken(origin: string, pathAndQuery: string, clientId: string): RegExp {
  const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^${literal(`${origin}${pathAndQuery}`)}&frame=[\\w-]{16}&client=${literal(clientId)}$`);
}

/** The tokens the tab keeps for game pages, by key. */
export async function storedTokens(page: Page): Promise<string[]> {
  return page.evaluate<string[]>(
    "Object.keys(sessionStorage).filter((key) => key.startsWith('poker-launch.auth'))",
  );
}

export async function screenshot(page: Page, name: string): Promise<string> {
  await mkdir(ARTIFACTS_DIR, { recursive: true });
  const path = new URL(name, ARTIFACTS_DIR).pathname;
  await page.screenshot({ path, fullPage: true });
  return path;
}
