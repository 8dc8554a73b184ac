import { type Client, requestProtection } from '../clients/client.js';
import { type ClientChanges, LAUNCH_TARGETS } from './client-changes.js';
import { sameMembers } from './same-members.js';

/**
 * The part of a checked change that differs from the client as stored: what is written and what the audit
 * log records (docs/design.md, "Administrative changes"). `client update --enable` on an enabled client,
 * or a console form saved as shown, changes nothing and is recorded nowhere.
 */
export function changesThatDiffer(client: Client, changes: ClientChanges): ClientChanges {
  const differ: ClientChanges = {};
  const protection = requestProtection(client);
  // A secret set again is no rotation: the overlap it asks for goes with it.
  if (changes.secretKey !== undefined && changes.secretKey !== client.secretKey) {
    differ.secretKey = changes.secretKey;
    if (changes.keepPreviousSecretUntil !== undefined)
      differ.keepPreviousSecretUntil = changes.keepPreviousSecretUntil;
  }
  if (changes.active !== undefined && changes.active !== client.active) differ.active = changes.active;
  if (changes.currencyMandatory !== undefined && changes.currencyMandatory !== client.currencyMandatory)
    differ.currencyMandatory = changes.currencyMandatory;
  if (changes.playerIdMode !== undefined && changes.playerIdMode !== client.playerIdMode)
    differ.playerIdMode = changes.playerIdMode;
  const urls = Object.fromEntries(
    LAUNCH_TARGETS.filter(
      (target) =>
        changes.launchUrls?.[target] !== undefined &&
        (changes.launchUrls[target] ?? undefined) !== client.launchUrls[target],
    ).map((target) => [target, changes.launchUrls?.[target]]),
  );
  if (Object.keys(urls).length > 0) differ.launchUrls = urls;
  if (changes.frameOrigins !== undefined && !sameMembers(changes.frameOrigins, client.frameOrigins))
    differ.frameOrigins = changes.frameOrigins;
  if (changes.replayProtection !== undefined && changes.replayProtection !== protection.replayProtection)
    differ.replayProtection = changes.replayProtection;
  if (
    changes.replayWindowSeconds !== undefined &&
    changes.replayWindowSeconds !== protection.replayWindowSeconds
  )
    differ.replayWindowSeconds = changes.replayWindowSeconds;
  if (changes.signature !== undefined && changes.signature !== protection.signature)
    differ.signature = changes.signature;
  if (
    changes.allowedAddresses !== undefined &&
    !sameMembers(changes.allowedAddresses, protection.allowedAddresses)
  )
    differ.allowedAddresses = changes.allowedAddresses;
  return differ;
}
