import { mkdir } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { beforeAll, beforeEach, expect } from 'vitest';
import type { Db } from '../../../src/db/schema.js';
import { addTestOperator, TEST_PASSWORD } from '../../../src/test-support/console-client.js';
import type { Dialect } from '../../../src/test-support/test-database.js';
import { screenshot } from './game-page.js';
import { type ServiceInChromium, useServiceInChromium } from './service-in-chromium.js';

/** `UPDATE_CONSOLE_SCREENSHOTS=1`: the SQLite runs write the screenshots of docs/console.md. */
const DOCS_SCREENSHOTS = process.env.UPDATE_CONSOLE_SCREENSHOTS === '1';
const DOCS_IMAGES = new URL('../../../../../docs/console/', import.meta.url);

/** A picture of the page: into docs/console/ when asked for (SQLite only), else into artifacts/. */
export async function consoleShot(page: Page, dialect: Dialect, name: string): Promise<void> {
  if (!DOCS_SCREENSHOTS || dialect !== 'sqlite') {
    await screenshot(page, `console-${dialect}-${name}`);
    return;
  }
  await mkdir(DOCS_IMAGES, { recursive: true });
  await page.screenshot({ path: new URL(name, DOCS_IMAGES).pathname, fullPage: true });
}

/**
 * Collects what the page's policy refused (an inline style, a script, a frame) and every script error:
 * they show as console errors. The 4xx answers of refused forms show too, and are not problems.
 */
export function watchForProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) {
      problems.push(message.text());
    }
  });
  page.on('pageerror', (error) => problems.push(error.message));
  return problems;
}

/** Signs in with the keyboard alone: skip link, the two fields, Enter. */
export async function signInWithKeyboard(page: Page, origin: string, username: string): Promise<void> {
  await page.goto(`${origin}/console`);
  await page.waitForURL(`${origin}/console/sign-in`);
  await page.keyboard.press('Tab');
  expect(await page.evaluate('document.activeElement?.textContent')).toBe('Skip to content');
  await page.keyboard.press('Tab');
  await page.keyboard.type(username);
  await page.keyboard.press('Tab');
  await page.keyboard.type(TEST_PASSWORD);
  await page.keyboard.press('Enter');
  await page.waitForURL(`${origin}/console`);
}

/** What a console test in Chromium works with; read inside a test (or a hook after the helper's). */
export interface ConsoleInChromium extends ServiceInChromium {
  /** The service's database; the service has the operators `alice` (admin) and `sam` (support). */
  readonly db: Db;
  /** What the page's policy refused and its script errors, since the test began (`watchForProblems`). */
  readonly problems: string[];
  /** Signs `username` in with the keyboard alone (`signInWithKeyboard`). */
  signIn(username: string): Promise<void>;
  /** A picture of the page (`consoleShot`). */
  shot(name: string): Promise<void>;
}

/**
 * The setup every console suite in Chromium shares: `useServiceInChromium` at 1280 × 800 on `dialect`
 * (`env`: more of its configuration), with `alice` and `sam`, and each test's problems watched.
 */
export function useConsoleInChromium(
  dialect: Dialect,
  options: { readonly env?: Readonly<Record<string, string>> } = {},
): ConsoleInChromium {
  const chromium = useServiceInChromium({
    dialect,
    env: options.env,
    viewport: { width: 1280, height: 800 },
  });
  let problems: string[] = [];
  beforeAll(async () => {
    const { db } = chromium.service.server.database;
    await addTestOperator(db, 'alice', 'admin');
    await addTestOperator(db, 'sam', 'support');
  });
  beforeEach(() => {
    problems = watchForProblems(chromium.page);
  });

  return {
    get service() {
      return chromium.service;
    },
    get db() {
      return chromium.service.server.database.db;
    },
    get context() {
      return chromium.context;
    },
    get page() {
      return chromium.page;
    },
    get problems() {
      return problems;
    },
    url: chromium.url,
    signIn: (username) => signInWithKeyboard(chromium.page, chromium.service.origin, username),
    shot: (name) => consoleShot(chromium.page, dialect, name),
  };
}
