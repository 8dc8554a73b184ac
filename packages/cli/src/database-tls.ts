import type { DatabaseConfig } from '@poker-launch/server/admin';
import { describeDatabase } from './database-notice.js';

/** node-postgres's words for a server that answered its SSLRequest with no. */
const SERVER_WITHOUT_TLS = /^The server does not support SSL connections/;

/** Node's codes for a server certificate it does not trust, or that names another host. */
const CERTIFICATE_CODES = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

/**
 * What DATABASE_URL's TLS settings and the server disagree on, in one line naming the database (its
 * password masked) and its sslmode; undefined for any other error. A configuration to fix, not an outage
 * nor "a damaged database or a bug".
 */
export function tlsProblem(error: unknown, database: DatabaseConfig): string | undefined {
  if (database.dialect !== 'postgres' || typeof error !== 'object' || error === null) return undefined;
  const { message, code } = error as { message?: unknown; code?: unknown };
  const sslmode = sslmodeOf(database.url);
  const where = `the database ${describeDatabase(database)}`;
  if (typeof message === 'string' && SERVER_WITHOUT_TLS.test(message)) {
    return (
      `cannot connect to ${where}: ${message}; DATABASE_URL asks for TLS (sslmode=${sslmode ?? 'unset'}) and that ` +
      'server offers none: enable SSL on the server, or connect without TLS (sslmode=disable) where the network is trusted'
    );
  }
  if (typeof code === 'string' && CERTIFICATE_CODES.has(code)) {
    return (
      `cannot connect to ${where}: ${String(message)} (${code}); with sslmode=${sslmode ?? 'unset'} the driver ` +
      "checks the server's certificate and its name (node-postgres treats require as verify-full): give the " +
      'CA that signed it with sslrootcert=<file>, or connect by the name the certificate has'
    );
  }
  return undefined;
}

function sslmodeOf(url: string): string | undefined {
  try {
    return new URL(url).searchParams.get('sslmode') ?? undefined;
  } catch {
    return undefined;
  }
}
