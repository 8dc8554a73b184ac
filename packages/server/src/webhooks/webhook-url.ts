import { isIP } from 'node:net';
import type { Config } from '../config.js';
import { hasControlCharacters } from '../validation/field-rules.js';
import { isForbiddenAddress } from './address-guard.js';

export const WEBHOOK_URL_MAX_LENGTH = 2048;

/**
 * Ports no webhook goes to: the Fetch standard's bad ports (https://fetch.spec.whatwg.org/#port-blocking),
 * those a browser refuses too, of services that read a line-based protocol (SSH 22, SMTP 25 and 587, IRC,
 * SIP…) where an HTTP request's lines could pass for commands to a third party's server. Tested against
 * undici's copy of the list. Outside production, WEBHOOK_ALLOW_PRIVATE_ADDRESSES=true (staging, tests: the
 * operator's own network, where such a port may stand for "nothing listens here") allows them, as http:.
 */
export const BAD_PORTS: ReadonlySet<string> = new Set(
  (
    '1 7 9 11 13 15 17 19 20 21 22 23 25 37 42 43 53 69 77 79 87 95 101 102 103 104 109 110 111 113 115 117 ' +
    '119 123 135 137 139 143 161 179 389 427 465 512 513 514 515 526 530 531 532 540 548 554 556 563 587 ' +
    '601 636 989 990 993 995 1719 1720 1723 2049 3659 4045 4190 5060 5061 6000 6566 6665 6666 6667 6668 ' +
    '6669 6679 6697 10080'
  ).split(' '),
);

/**
 * Why this URL may not be a webhook endpoint here, or undefined when it may: an absolute URL without
 * credentials or fragment; https, or http outside production with WEBHOOK_ALLOW_PRIVATE_ADDRESSES=true;
 * on no bad port (BAD_PORTS, nor 0) under the same condition; not a literal private address or localhost
 * unless allowed. Host names are checked again, after DNS, at every delivery (address-guard.ts), and the
 * whole URL again with the rules of the day before every batch (webhook-deliverer.ts).
 */
export function webhookUrlProblem(
  text: string,
  config: Pick<Config, 'deployment' | 'webhookAllowPrivateAddresses'>,
): string | undefined {
  if (text.length > WEBHOOK_URL_MAX_LENGTH)
    return `a webhook URL is at most ${WEBHOOK_URL_MAX_LENGTH} characters`;
  // The URL parser drops tabs and line breaks and escapes other controls, so such a URL works, but it is
  // kept as given and printed as given (`webhook list`), where an escape sequence acts in a terminal.
  if (hasControlCharacters(text)) return 'a webhook URL has no control characters (tab, line break, escape…)';
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return `"${text.slice(0, 100)}" is not an absolute URL`;
  }
  const httpAllowed = config.deployment !== 'production' && config.webhookAllowPrivateAddresses;
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && httpAllowed)) {
    return config.deployment === 'production'
      ? 'a webhook URL must be https: in production'
      : 'a webhook URL must be https: (http: only with WEBHOOK_ALLOW_PRIVATE_ADDRESSES=true)';
  }
  if (url.username !== '' || url.password !== '') return 'a webhook URL carries no user name or password';
  if (url.hash !== '') return 'a webhook URL has no fragment (#…)';
  if (!httpAllowed && (url.port === '0' || BAD_PORTS.has(url.port))) {
    return `a webhook URL may not use port ${url.port} (a port browsers refuse too: see the Fetch standard's bad ports)`;
  }
  if (!config.webhookAllowPrivateAddresses) {
    // A trailing dot names the same host (`localhost.` is localhost): judged without it.
    const host = url.hostname.replace(/^\[|\]$/g, '').replace(/\.+$/, '');
    if (
      (isIP(host) !== 0 && isForbiddenAddress(host)) ||
      host === 'localhost' ||
      host.endsWith('.localhost')
    ) {
      return `${host} is not a public address (set WEBHOOK_ALLOW_PRIVATE_ADDRESSES=true to allow it)`;
    }
  }
  return undefined;
}
