import { isIP } from 'node:net';
import type { Config } from '../config.js';
import { isForbiddenAddress } from './address-guard.js';

export const WEBHOOK_URL_MAX_LENGTH = 2048;

/**
 * Why this URL may not be a webhook endpoint here, or undefined when it may: an absolute URL without
 * credentials or fragment; https, or http outside production with WEBHOOK_ALLOW_PRIVATE_ADDRESSES=true;
 * not a literal private address or localhost unless allowed. Host names are checked again, after DNS,
 * at every delivery (address-guard.ts).
 */
export function webhookUrlProblem(
  text: string,
  config: Pick<Config, 'deployment' | 'webhookAllowPrivateAddresses'>,
): string | undefined {
  if (text.length > WEBHOOK_URL_MAX_LENGTH)
    return `a webhook URL is at most ${WEBHOOK_URL_MAX_LENGTH} characters`;
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
