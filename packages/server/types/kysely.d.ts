// The types of `#kysely`, the one-file build of Kysely the server loads (scripts/bundle-kysely.mjs).
export * from 'kysely';
