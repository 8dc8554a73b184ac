import type { Browser, BrowserContext, Page, ViewportSize } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { launchChromium } from './chromium.js';
import { type RunningService, type RunningServiceOptions, startRunningService } from './running-service.js';

/** What a test of the service in Chromium works with; read inside a test (or a hook after the helper's). */
export interface ServiceInChromium {
  /** The real service, one for all the tests of the describe. */
  readonly service: RunningService;
  /** The test's own browser context and its page. */
  readonly context: BrowserContext;
  readonly page: Page;
  /** `path` on the service's origin. */
  url(path: string): string;
}

/** Throws where a value the hooks set is read before they ran. */
function started<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`no ${what}: read it inside a test`);
  return value;
}

/**
 * The setup the browser suites share, as hooks of the describe that calls it: Chromium and the service
 * (`options`: its dialect, configuration) for all its tests, a new context (of `viewport`, if given) and
 * page for each.
 */
export function useServiceInChromium(
  options: RunningServiceOptions & { readonly viewport?: ViewportSize } = {},
): ServiceInChromium {
  const { viewport, ...serviceOptions } = options;
  let browser: Browser | undefined;
  let service: RunningService | undefined;
  let context: BrowserContext | undefined;
  let page: Page | undefined;

  beforeAll(async () => {
    await Promise.all([
      launchChromium().then((launched) => {
        browser = launched;
      }),
      startRunningService(serviceOptions).then((running) => {
        service = running;
      }),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await service?.close();
  });
  beforeEach(async () => {
    context = await started(browser, 'browser').newContext(viewport ? { viewport } : {});
    page = await context.newPage();
  });
  afterEach(async () => {
    await context?.close();
  });

  return {
    get service() {
      return started(service, 'service');
    },
    get context() {
      return started(context, 'context');
    },
    get page() {
      return started(page, 'page');
    },
    url: (path) => `${started(service, 'service').origin}${path}`,
  };
}
