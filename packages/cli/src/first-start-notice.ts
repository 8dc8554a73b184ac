import { sign } from '@poker-launch/sdk';

/** What a production first start says instead of creating a client: one line, on stderr. */
export const PRODUCTION_NO_CLIENTS_NOTICE =
  'No clients yet, and a production deployment creates none: add one with "poker-launch client add <id>" (it prints the new secret once).';

/** The example request of the notice: every parameter it sends, path userId included, is signed. */
export const EXAMPLE_PARAMS = { userId: 'player-1', nick: 'Player1', lang: 'en' } as const;

/**
 * What the first start prints for the client it created: the credentials (this once) and a curl
 * command that creates a v2 session with them, signed for exactly the parameters it sends.
 */
export async function firstStartNotice(address: string, clientId: string, secret: string): Promise<string[]> {
  const signature = await sign(EXAMPLE_PARAMS, secret);
  const url = `${address}/api/web/v2/app/users/${EXAMPLE_PARAMS.userId}/session?clientId=${encodeURIComponent(clientId)}`;
  const body = new URLSearchParams(EXAMPLE_PARAMS).toString();
  return [
    '',
    `No clients yet, so client "${clientId}" was created. Store its secret now (later starts do not print it;`,
    `poker-launch client show ${clientId} --show-secret does):`,
    `  client id: ${clientId}`,
    `  secret:    ${secret}`,
    '',
    'Create a session (v2) with it:',
    `  curl -X POST '${url}' \\`,
    `    -H 'accept: application/vnd.api+json' -H 'sign: ${signature}' \\`,
    `    -d '${body}'`,
    '',
  ];
}

/** Where a local curl reaches the server: a wildcard listen address means this machine. */
export function localAddress(address: string): string {
  const url = new URL(address);
  if (url.hostname === '0.0.0.0') url.hostname = '127.0.0.1';
  if (url.hostname === '[::]') url.hostname = '[::1]';
  return url.origin;
}
