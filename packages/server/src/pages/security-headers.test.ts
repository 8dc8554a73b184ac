import { describe, expect, it } from 'vitest';
import { contentSecurityPolicy, frameAncestorSources } from './security-headers.js';

describe('frameAncestorSources', () => {
  it('keeps http(s) origins in their serialized form', () => {
    expect(
      frameAncestorSources(['https://casino.example', 'https://A.Example/', 'http://[::1]:8080']),
    ).toEqual(['https://casino.example', 'https://a.example', 'http://[::1]:8080']);
  });

  it('drops anything CSP would read as more than one origin', () => {
    expect(
      frameAncestorSources([
        "https://a.example; script-src 'unsafe-inline'",
        'https://a.example;x',
        'https://*.a.example',
        '*',
        "'self'",
        'https://a.example/path',
        'https://user@a.example',
        'javascript:alert(1)',
        'data:text/html,x',
      ]),
    ).toEqual([]);
  });
});

describe('contentSecurityPolicy', () => {
  it("ends with frame-ancestors 'none' when no origin may frame the page", () => {
    expect(contentSecurityPolicy(['https://*.a.example'])).toMatch(/; frame-ancestors 'none'$/);
  });
});
