import { type SessionDocument, sign } from '@poker-launch/sdk';

/** POSTs a v2 create session to a running server, signed with the client's secret, as an integrator would. */
export async function createSession(
  address: string,
  clientId: string,
  secret: string,
  userId: string,
): Promise<{ status: number; body: SessionDocument }> {
  const params = { userId, lang: 'en' };
  const response = await fetch(`${address}/api/web/v2/app/users/${userId}/session?clientId=${clientId}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      accept: 'application/vnd.api+json',
      sign: await sign(params, secret),
    },
    body: new URLSearchParams(params).toString(),
  });
  return { status: response.status, body: (await response.json()) as SessionDocument };
}

/** The client id and secret serve printed on its first start. */
export function printedCredentials(stdout: string): { clientId: string; secret: string } {
  return {
    clientId: /client id: (\S+)/.exec(stdout)?.[1] ?? 'not printed',
    secret: /secret: {4}(\S+)/.exec(stdout)?.[1] ?? 'not printed',
  };
}
