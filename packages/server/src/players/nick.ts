/**
 * The form a nick is compared in: NFKC, case-folded, ignorable code points (zero-width spaces and
 * the like) removed, white space collapsed. "Zoë", "ZOË" and "Zo\u200Bë" are one username, so nobody can
 * register a look-alike of another player's name.
 */
export function nickKey(nick: string): string {
  return nick
    .normalize('NFKC')
    .toUpperCase()
    .toLowerCase()
    .normalize('NFKC')
    .replace(/\p{Default_Ignorable_Code_Point}/gu, '')
    .replace(/\s+/gu, ' ')
    .trim();
}
