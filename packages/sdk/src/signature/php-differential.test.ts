import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { describeWithPhp, type PhpCase, type PhpPart, phpSignatures } from '../../../../test/php/php-cli.js';
import { formText, formTextOf, jsonObject, key, plainName, text } from '../../../../test/php/php-inputs.js';
import { NOT_JSON, phpJsonDecode } from '../php/json-decode.js';
import { parseStr } from '../php/parse-str.js';
import { arrayReplace, PhpArray } from '../php/php-array.js';
import { canonicalString, mergedCanonicalString, type SignableParams } from './canonical-string.js';

/** Fixed seeds: the same thousands of cases on every run, so a failure is a failure, not luck. */
const SEED = 20_251_123;

/** The SDK's reading of a case: each part as PHP reads it, merged as array_replace does. */
function sdkCanonical(item: PhpCase): string {
  const layers = sdkLayers(item);
  const params = arrayReplace(...layers);
  for (const name of item.drop ?? []) params.delete(name);
  const canonical = canonicalString(params);
  // The merge-free reading a server uses (mergedCanonicalString) gives the same string, or the same error.
  if ((item.drop ?? []).length === 0) expect(mergedCanonicalString(layers)).toBe(canonical);
  return canonical;
}

function sdkLayers(item: PhpCase): PhpArray[] {
  return item.parts.map((part: PhpPart): PhpArray => {
    if (part.type === 'pairs') return PhpArray.from(Object.entries(part.values));
    if (part.type === 'json') {
      const decoded = phpJsonDecode(part.text);
      return decoded !== NOT_JSON && decoded instanceof PhpArray ? decoded : new PhpArray();
    }
    return parseStr(part.text);
  });
}

function expectSameAsPhp(cases: PhpCase[]): void {
  const php = phpSignatures(cases);
  cases.forEach((item, index) => {
    const expected = php[index];
    const canonical = sdkCanonical(item);
    const context = JSON.stringify(item);
    expect(canonical, context).toBe(expected?.canonical);
    const sign = createHash('sha256')
      .update(canonical + item.secret, 'utf8')
      .digest('hex');
    expect(sign, context).toBe(expected?.sign);
  });
}

const secret = fc.constantFrom('test_secret', 's3cr3t', 'é-secret');

describeWithPhp('the canonical string equals real PHP 8 (php-cli)', () => {
  it('for 2,000 generated query strings and form bodies (brackets, integer and numeric keys, Unicode)', () => {
    const cases = fc.sample(
      fc.record({
        parts: fc.tuple(formText, formText).map(([query, form]): PhpPart[] => [
          { type: 'query', text: query },
          { type: 'form', text: form },
        ]),
        secret,
      }),
      { numRuns: 2000, seed: SEED },
    );
    expectSameAsPhp(cases);
  });

  it('for 2,000 generated JSON bodies (nested, repeated keys, every scalar, floats, big integers)', () => {
    const cases = fc.sample(
      fc.record({
        parts: fc.tuple(formText, jsonObject).map(([query, body]): PhpPart[] => [
          { type: 'query', text: query },
          { type: 'json', text: body },
        ]),
        secret,
      }),
      { numRuns: 2000, seed: SEED + 1 },
    );
    expectSameAsPhp(cases);
  });

  it('for 2,000 v2-shaped requests of plain names: query, form and the path userId (the merge-free reading)', () => {
    const cases = fc.sample(
      fc.record({
        parts: fc
          .tuple(formTextOf(plainName), formTextOf(plainName), text)
          .map(([query, form, userId]): PhpPart[] => [
            { type: 'query', text: query },
            { type: 'form', text: form },
            { type: 'pairs', values: { userId } },
          ]),
        secret,
      }),
      { numRuns: 2000, seed: SEED + 4 },
    );
    expectSameAsPhp(cases);
  });

  it('for 500 v3-shaped documents with the client dropped, and v2 path parameters merged in', () => {
    const document = jsonObject.map(
      (attributes) => `{"data":{"type":"OpenGame","attributes":${attributes}}}`,
    );
    const cases = fc.sample(
      fc.record({
        parts: fc.tuple(key, text, document).map(([name, value, body]): PhpPart[] => [
          { type: 'query', text: `client=demo&${encodeURIComponent(name)}=${encodeURIComponent(value)}` },
          { type: 'pairs', values: { userId: value } },
          { type: 'json', text: body },
        ]),
        drop: fc.constant(['client']),
        secret,
      }),
      { numRuns: 500, seed: SEED + 2 },
    );
    expectSameAsPhp(cases);
  });

  it('for 1,000 plain JavaScript objects, read by PHP from their JSON', () => {
    const plain = fc.dictionary(
      key,
      fc.oneof(
        text,
        fc.integer(),
        fc.double({ noNaN: true, noDefaultInfinity: true }),
        fc.boolean(),
        fc.constant(null),
        fc.dictionary(key, text, { maxKeys: 4 }),
        fc.array(text, { maxLength: 3 }),
      ),
      { maxKeys: 8 },
    );
    const objects = fc.sample(plain, { numRuns: 1000, seed: SEED + 3 });
    const php = phpSignatures(
      objects.map((object) => ({ parts: [{ type: 'json', text: JSON.stringify(object) }], secret: 's' })),
    );
    objects.forEach((object, index) => {
      expect(canonicalString(object as SignableParams), JSON.stringify(object)).toBe(php[index]?.canonical);
    });
  });
});
