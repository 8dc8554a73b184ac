/**
 * What equal texts on both sides mean: the SDK and the server signed the same thing, so the credentials
 * were refused. A server answers an unknown or disabled client id exactly as a wrong secret (so that
 * nobody can probe which clients exist), and as a client whose setting does not take the scheme the
 * request was signed with (its operator's `client update --signature legacy|hmac|both`), so all are named.
 */
const credentialsRefused = (otherScheme: string) =>
  'so the server refused the credentials: either the secret key is not the one it has for this client id, ' +
  `or the client id is unknown or disabled, or the client is set to take ${otherScheme} (it does not say which)`;

/**
 * Lines that put the server's canonical string under the SDK's, with a caret at the first character
 * where they part. Equal strings mean both sides hashed the same text: the secret key, the client id or
 * the client's signature setting is at fault.
 *
 * @example
 * explainCanonicalMismatch('enBob12345', 'enBobby12345').join('\n');
 * // server canonical: enBob12345
 * // SDK canonical:    enBobby12345
 * //                        ^ first difference at character 6
 */
export function explainCanonicalMismatch(server: string, sdk: string): string[] {
  return explainMismatch('canonical', server, sdk, 'the parameters agree', 'hmac signatures only');
}

/**
 * The same for the hmac scheme: the text the server's HMAC covered under the SDK's, line breaks shown
 * as `\n`, with a caret at the first difference (a proxy that rewrote the path, a body changed on the way).
 *
 * @example
 * explainHmacMismatch('hmac-sha256\nPOST\n/a?x=1\n…', 'hmac-sha256\nPOST\n/b/a?x=1\n…')[2];
 * // '                              ^ first difference at character 19'
 */
export function explainHmacMismatch(server: string, sdk: string): string[] {
  const shown = (text: string) => text.replaceAll('\\', '\\\\').replaceAll('\n', '\\n');
  return explainMismatch(
    'signing text',
    shown(server),
    shown(sdk),
    'the request agrees',
    "the API's signature only, not hmac",
  );
}

function explainMismatch(
  what: string,
  server: string,
  sdk: string,
  agreement: string,
  otherScheme: string,
): string[] {
  const serverLabel = `server ${what}: `;
  const sdkLabel = `SDK ${what}:`.padEnd(serverLabel.length);
  if (server === sdk)
    return [
      serverLabel + server,
      `${sdkLabel}(identical) - ${agreement}, ${credentialsRefused(otherScheme)}`,
    ];
  const serverChars = [...server];
  const sdkChars = [...sdk];
  let index = 0;
  while (index < serverChars.length && serverChars[index] === sdkChars[index]) index++;
  return [
    serverLabel + server,
    sdkLabel + sdk,
    `${' '.repeat(sdkLabel.length + index)}^ first difference at character ${index + 1}`,
  ];
}
