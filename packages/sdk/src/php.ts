/**
 * `@poker-launch/sdk/php`: PHP's readers and values, as the service reads a request (parse_str,
 * json_decode, array_replace, PHP's arrays, floats and string order), and the canonical string of a
 * request's layers. For signing what PHP reads where JavaScript objects cannot keep PHP's key order
 * (packages/sdk/README.md, "Signing by hand"). They follow the service's needs and may change in any
 * 0.x release (docs/sdk.md, "Entry points").
 */
export { compareUtf8 } from './php/compare-utf8.js';
export { NOT_JSON, phpJsonDecode } from './php/json-decode.js';
export { PhpInputError, parseStr } from './php/parse-str.js';
export { arrayReplace, PhpArray, PhpFloat, type PhpKey, type PhpValue, phpKey } from './php/php-array.js';
export { floatText } from './php/php-text.js';
export { mergedCanonicalString } from './signature/canonical-string.js';
export { mergedSignedText } from './signature/sign.js';
