import type { ErrorObject } from '@poker-launch/sdk';
import { mergedCanonicalString } from '@poker-launch/sdk/php';
import type { AppContext } from '../app-context.js';
import { type Client, requestProtection } from '../clients/client.js';
import { ApiError, errorObject } from '../http/api-error.js';
import { phpReading } from '../http/body/php-reading.js';
import type { ParsedLaunch } from '../launch/check-and-launch.js';
import { checkLaunchRules } from '../launch/launch-rules.js';
import { v2SignedRequest, v3SignedRequest } from '../launch/signed-request.js';
import { assertSameUserId, readBody } from '../launch/v2/v2.routes.js';
import {
  assertFlatParameters,
  parseV2Params,
  unknownParameterWarnings,
  V2_POINTERS,
} from '../launch/v2/v2-params.js';
import {
  parseOpenGameAttributes,
  readOpenGameDocument,
  unknownAttributeWarnings,
  unknownQueryParameterWarnings,
} from '../launch/v3/v3-document.js';
import { V3_POINTERS } from '../launch/v3/v3-fields.js';
import { checkSignature, invalidSignature } from '../signature/authenticate-client.js';
import { type AcceptedSignature, checkSignedTime } from '../signature/request-protection-checks.js';
import type { SignatureHint } from '../signature/signature-hints.js';
import type { SignatureProof, SignedRequest } from '../signature/signed-request.js';
import { requestReplayed, wasUsedBefore } from '../signature/used-signatures.js';
import { collect, type PastedRequest, readPastedRequest } from './pasted-request.js';

/** What the signature tester shows for a pasted request. */
export interface SignatureReport {
  operation: 'v2' | 'v3' | undefined;
  /** What the service reads: the path's userId, the query, the body, the sign header. */
  read: {
    userId?: string | undefined;
    query: unknown;
    body: unknown;
    bodyType?: string | undefined;
    sign?: string | undefined;
  };
  canonical?: string | undefined;
  acceptedAlternative?: string | undefined;
  /** `holds`; `fails` (wrong or missing sign, or no such active client: never told apart); `not-needed` (a client without a secret). */
  signature: 'holds' | 'fails' | 'not-needed' | 'not-checked';
  hints: SignatureHint[];
  /** Every error the request would get, in the order the service finds them; none creates anything here. */
  errors: ErrorObject[];
  warnings: string[];
}

/** A pasted request checked, and the client it speaks for when its signature holds. */
export interface PastedRequestCheck {
  report: SignatureReport;
  client: Client | undefined;
}

/**
 * A dry run of a launch: the same readers, signature check and field rules as the routes, without
 * creating a session or a player (so a taken nickname, checked at the write, is not found here).
 */
export async function checkPastedRequest(
  context: AppContext,
  pasted: PastedRequest,
): Promise<PastedRequestCheck> {
  const read = readPastedRequest(pasted, context.config.publicUrl);
  const errors = [...read.errors];
  const report: SignatureReport = {
    operation: read.operation,
    read: {
      userId: read.userId,
      query: read.query,
      body: read.body,
      bodyType: read.bodyType,
      sign: read.sign,
    },
    signature: 'not-checked',
    hints: [],
    errors,
    warnings: [],
  };
  if (read.operation === undefined) return { report, client: undefined };
  const base = { query: read.query, received: read.sign, now: context.clock() };
  let signed: SignedRequest | undefined;
  let parse: () => ParsedLaunch | undefined;
  if (read.operation === 'v2') {
    const body = collect(errors, () => readBody(read.body), {});
    const userId = read.userId ?? '';
    collect(errors, () => assertFlatParameters(body), undefined);
    collect(errors, () => assertSameUserId(body.userId, userId), undefined);
    signed = collect(errors, () => v2SignedRequest({ ...base, body, userId }), undefined);
    report.warnings.push(...unknownParameterWarnings(body));
    parse = () => parseV2Params({ ...read.query, ...body, userId });
  } else {
    const params = phpReading(read.body);
    signed = collect(errors, () => v3SignedRequest({ ...base, params, body: read.body }), undefined);
    parse = () => {
      const attributes = collect(errors, () => readOpenGameDocument(read.body), undefined);
      if (attributes) {
        report.warnings.push(
          ...unknownQueryParameterWarnings(read.query),
          ...unknownAttributeWarnings(attributes),
        );
      }
      return attributes && parseOpenGameAttributes(attributes);
    };
  }
  const client = (signed && (await checkSignatureInto(context, signed, report))) || undefined;
  const parsed = parse();
  if (parsed) errors.push(...parsed.errors);
  // The rules that depend on the client's configuration run only for a request that proves it speaks for it.
  if (parsed && client) {
    const { live } = context;
    const pointers = read.operation === 'v2' ? V2_POINTERS : V3_POINTERS;
    const rules = checkLaunchRules(
      client,
      live.settings,
      (code) => live.currencyStatus(code),
      parsed.ruleInput,
      pointers,
    );
    errors.push(...rules.errors);
    report.warnings.push(...rules.warnings);
  }
  return { report, client };
}

/** Fills the report's signature part; the client, when the request speaks for one. */
async function checkSignatureInto(context: AppContext, signed: SignedRequest, report: SignatureReport) {
  const [canonical, alternative] = signed.candidates.map((candidate) => {
    try {
      return mergedCanonicalString(candidate);
    } catch {
      return undefined;
    }
  });
  if (canonical === undefined) {
    report.errors.push(errorObject('bad_request', 'The request parameters nest too deeply'));
    return undefined;
  }
  report.canonical = canonical;
  report.acceptedAlternative = alternative;
  const check = checkSignature(context.live, signed);
  if (check.ok) {
    report.signature = check.client.secretKey === null ? 'not-needed' : 'holds';
    await checkSignedTimeInto(context, check.client, check.proof, signed, report);
    return check.client;
  }
  report.signature = 'fails';
  const refusal = invalidSignature({ ...context.config, deployment: 'staging' }, signed);
  report.errors.push(...refusal.errors);
  const meta = refusal.extras.meta as { signature?: { hints?: SignatureHint[] } } | undefined;
  report.hints = meta?.signature?.hints ?? [];
  return undefined;
}

/**
 * What the client demands of a signed time, as a launch would find it: its replay fields, a time within
 * its window, a signature not used before (read, never recorded: the dry run uses nothing up). The
 * client's address allow-list is not judged: the tester cannot know where the request will come from.
 */
async function checkSignedTimeInto(
  context: AppContext,
  client: Client,
  proof: SignatureProof,
  signed: SignedRequest,
  report: SignatureReport,
): Promise<void> {
  let accepted: AcceptedSignature;
  try {
    accepted = checkSignedTime(client, proof, signed);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    report.errors.push(...error.errors);
    return;
  }
  const used = accepted.usedSignature;
  if (used !== undefined && (await wasUsedBefore(context.db, used, signed.now)))
    report.errors.push(...requestReplayed().errors);
  if (requestProtection(client).allowedAddresses.length > 0) {
    report.warnings.push(
      'This client accepts requests only from its allowed addresses; the tester cannot tell where the request will be sent from',
    );
  }
}
