/** `data.attributes` of a PlayerBlock document sent to block a player. */
export interface PlayerBlockAttributes {
  /** ISO 8601 with a time zone; omitted or null: until the block is lifted. */
  until?: string | null | undefined;
  /** At most 200 characters. */
  reason?: string | undefined;
}

/** The PlayerBlock resource the service answers. */
export interface PlayerBlockDocument {
  data: {
    type: 'PlayerBlock';
    /** The player id. */
    id: string;
    attributes: { blocked: boolean; since: string | null; until: string | null; reason: string | null };
  };
  /** PUT only: `warnings` names the attributes of the document that were not applied. */
  meta?: { revokedSessions?: number; warnings?: string[] };
}
