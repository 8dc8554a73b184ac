import { type SessionDocument, sign } from '@poker-launch/sdk';

/**
 * POSTs a v2 create session to a running server, signed with the client's secret, as an integrator would;
 * `fields` adds body parameters (a nick, a gameCode).
 */
export async function createSession(
  address: string,
  clientId: string,
  secret: string,
  userId: string,
  fields: Record<string, string> = {},
): Promise<{ status: number; body: SessionDocument }> {
  const params = { userId, lang: 'en', ...fields };
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

/**
 * v2 launches of players `during-0`, `during-1` … one after another while `work` runs, as an integrator's
 * traffic goes on during an operator's command: `work`'s result and how many launches were answered 200.
 */
export async function launchingDuring<T>(
  address: string,
  { clientId, secret }: { clientId: string; secret: string },
  work: () => Promise<T>,
): Promise<{ result: T; launched: number }> {
  let loading = true;
  let launched = 0;
  const load = (async () => {
    while (loading) {
      if ((await createSession(address, clientId, secret, `during-${launched}`)).status === 200) launched++;
    }
  })();
  try {
    return { result: await work(), launched };
  } finally {
    loading = false;
    await load;
  }
}
