/**
 * Lines that put the server's canonical string under the SDK's, with a caret at the first character
 * where they part. Equal strings mean both sides hashed the same text, so the secret key differs.
 *
 * @example
 * explainCanonicalMismatch('enBob12345', 'enBobby12345').join('\n');
 * // server canonical: enBob12345
 * // SDK canonical:    enBobby12345
 * //                        ^ first difference at character 6
 */
export function explainCanonicalMismatch(server: string, sdk: string): string[] {
  if (server === sdk) {
    return [
      `server canonical: ${server}`,
      'SDK canonical:    (identical) - the parameters agree, so the secret key is not the one the server has',
    ];
  }
  const serverChars = [...server];
  const sdkChars = [...sdk];
  let index = 0;
  while (index < serverChars.length && serverChars[index] === sdkChars[index]) index++;
  return [
    `server canonical: ${server}`,
    `SDK canonical:    ${sdk}`,
    `${' '.repeat('SDK canonical:    '.length + index)}^ first difference at character ${index + 1}`,
  ];
}
