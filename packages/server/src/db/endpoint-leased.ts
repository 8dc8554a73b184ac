/**
 * The lease_until of an outbox row that goes to whoever holds its endpoint's lease instead of being
 * claimed on its own: a time no clock reaches, so a per-row claim (this version's or an older one's)
 * never takes it. New rows carry it from their insert (migration 020: PostgreSQL's column default,
 * SQLite's writer for a launch's rows). Docs/design.md §11.
 */
export const ENDPOINT_LEASED = '9999-12-31T23:59:59.999Z';
