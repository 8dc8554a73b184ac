export {
  canonicalString,
  compareUtf8,
  EXCLUDED_KEYS,
  numberText,
  type SignableParams,
  type SignableValue,
} from './signature/canonical-string.js';
export { sha256Hex, sign, signaturesMatch } from './signature/sign.js';
export * from './wire/index.js';
