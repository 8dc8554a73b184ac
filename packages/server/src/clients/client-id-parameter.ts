import { CLIENT_ID_PATTERN } from '../client-id.js';
import { ApiError } from '../http/api-error.js';

/**
 * The client id a query parameter names (`clientId` in v2, `client` in v3), or undefined when it is not
 * sent. A value no client can have (an array, control characters, 65 characters) is the caller's mistake,
 * answered 400 naming the parameter; it never reaches the database, where PostgreSQL would refuse a NUL.
 * Which well-formed ids exist stays secret: those go on to the signature check and its one 400.
 */
export function clientIdParameter(
  query: Readonly<Record<string, unknown>>,
  name: string,
): string | undefined {
  const value = Object.hasOwn(query, name) ? query[name] : undefined;
  if (value === undefined || value === '') return undefined;
  if (typeof value === 'string' && CLIENT_ID_PATTERN.test(value)) return value;
  throw ApiError.of(
    'bad_request',
    `The ${name} query parameter must be 1 to 64 letters, digits, ".", "_" or "-", starting with a letter or digit`,
  );
}
