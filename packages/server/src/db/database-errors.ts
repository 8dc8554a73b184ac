/**
 * What a driver error means for the caller. The error handler answers 503 `service_unavailable` for an
 * unavailable database, and the metrics count database errors; both ask here, so the driver's error
 * shapes are known in one place only.
 */

/** Socket failures on the way to the database: refused, reset, unreachable, timed out. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);

/**
 * PostgreSQL SQLSTATEs of a database that cannot serve now but may soon: shutting down or restarting
 * (57P01–57P03), too many connections or out of resources (class 53), a statement or lock timeout
 * (57014, 55P03), contention a retry resolves (40001 serialization failure, 40P01 deadlock), and a
 * database that takes no writes now (25006: a replica not promoted yet, `default_transaction_read_only`).
 * Class 08 is any connection exception. A refused connection (`ALLOW_CONNECTIONS false` is 55000) is FATAL.
 */
const POSTGRES_TRANSIENT = new Set(['57P01', '57P02', '57P03', '57014', '55P03', '40001', '40P01', '25006']);

/** node-postgres reports a lost or never-made connection with these messages and no code. */
const POSTGRES_CONNECTION_MESSAGE =
  /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Client was closed|Query read timeout)/;

/** SQLite: locked past busy_timeout, or the file cannot be read or written (disk full, I/O error). */
const SQLITE_UNAVAILABLE = /^SQLITE_(BUSY|LOCKED|IOERR|FULL|CANTOPEN|READONLY)/;

/**
 * True when the database could not serve the query for a reason that passes (an outage, a restart, a
 * failover, a timeout, contention): the request may be retried later, so it answers 503, not 500.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  const { code, message, severity } = fieldsOf(error);
  if (code !== undefined) {
    if (NETWORK_CODES.has(code)) return true;
    if (SQLITE_UNAVAILABLE.test(code)) return true;
    if (POSTGRES_TRANSIENT.has(code) || code.startsWith('08') || code.startsWith('53')) return true;
  }
  // A FATAL or PANIC error ends the connection, whatever its code.
  if (severity === 'FATAL' || severity === 'PANIC') return true;
  return message !== undefined && POSTGRES_CONNECTION_MESSAGE.test(message);
}

/** True for any error the database or its driver raised (for the metrics), unavailable or not. */
export function isDatabaseError(error: unknown): boolean {
  if (isDatabaseUnavailable(error)) return true;
  const { code, severity } = fieldsOf(error);
  // PostgreSQL errors carry a severity and a five-character SQLSTATE; SQLite's codes name themselves.
  return (
    code !== undefined &&
    ((severity !== undefined && /^[0-9A-Z]{5}$/.test(code)) || code.startsWith('SQLITE_'))
  );
}

function fieldsOf(error: unknown): { code?: string; message?: string; severity?: string } {
  if (typeof error !== 'object' || error === null) return {};
  const { code, message, severity } = error as Record<string, unknown>;
  return {
    ...(typeof code === 'string' ? { code } : {}),
    ...(typeof message === 'string' ? { message } : {}),
    ...(typeof severity === 'string' ? { severity } : {}),
  };
}
