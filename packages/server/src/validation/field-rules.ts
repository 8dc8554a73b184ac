import { isIP } from 'node:net';
import ISO6391 from 'iso-639-1';
import { BIDI_FORMATTING, CONTROL_CHARACTERS, characterClass } from './character-sets.js';
import { accept, type FieldRule, refuse } from './field-rule.js';

// The package's codes in a Set: its validate() is hasOwnProperty on a 183-key dictionary, which first
// interns the freshly lowercased text (0.39 µs a v2 launch against about 0.05, perf). Same answers.
const ISO_639_1_CODES: ReadonlySet<string> = new Set(ISO6391.getAllCodes());

// C0 and C1 control characters: never valid in any text field (they break logs, URLs and screens, and
// PostgreSQL refuses NUL in text outright).
const CONTROL = new RegExp(characterClass(CONTROL_CHARACTERS));

export const hasControlCharacters = (text: string): boolean => CONTROL.test(text);

// Nor are the explicit bidirectional formatting characters U+202A–U+202E and U+2066–U+2069 (embeddings,
// overrides, isolates: the "Trojan Source" set). They reorder what a screen shows: "Bob\u202Edcba" shows as
// "Bobabcd", whose nick key differs, since the key drops them as ignorable (docs/design.md §4). The marks
// U+200E and U+200F stay allowed: right-to-left names need them, and they reorder nothing.
// Both sets in one class, so a text with neither (nearly all) costs the one test it did.
const NOT_IN_TEXT = new RegExp(characterClass(CONTROL_CHARACTERS, BIDI_FORMATTING));

/** Whether a text has a control character or a bidirectional formatting character: no text field takes one. */
export const hasCharactersNotInText = (text: string): boolean => NOT_IN_TEXT.test(text);

/** The refusal of a text that hasCharactersNotInText, naming a control character first when there is one. */
export function charactersNotInTextDetail(name: string, hasControl: boolean): string {
  return hasControl
    ? `${name} must not contain control characters`
    : `${name} must not contain bidirectional formatting characters (U+202A–U+202E, U+2066–U+2069)`;
}

// What shows nothing on a screen: white space and the default-ignorable code points (zero-width space
// and joiners, word joiner, BOM, soft hyphen, Hangul fillers, bidi marks, variation selectors, …).
const VISIBLE = /[^\p{White_Space}\p{Default_Ignorable_Code_Point}]/u;

/**
 * Empty as a player sees it: nothing but invisible characters. `"\u200B"` is blank; `"Ann\u200B"` is not.
 * A search for one visible character, not the text with the invisible ones replaced: no copy of the text
 * (with textLength below, a v2 launch's field rules 11.5k → 10.4k instructions, docs/performance.md).
 */
export const isBlank = (text: string): boolean => !VISIBLE.test(text);

/**
 * Length as a player sees it: code points, not UTF-16 units (a surrogate pair is one, a lone surrogate
 * one, as `[...text].length` counts them, without making that array).
 */
export function textLength(text: string): number {
  let length = text.length;
  for (let index = 0; index < text.length - 1; index++) {
    const code = text.charCodeAt(index);
    if (code >= 0xd800 && code <= 0xdbff) {
      const next = text.charCodeAt(index + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        length--;
        index++;
      }
    }
  }
  return length;
}

export interface TextOptions {
  max: number;
  pattern?: RegExp;
  /** The refusal of a value the pattern does not match, or one made from the field's name. */
  patternDetail?: string | ((name: string) => string);
  /** Ids may arrive as JSON numbers; they are read as their decimal text. */
  acceptIntegers?: boolean;
  /**
   * For a value that names something stored, not one to store: the bidirectional formatting characters
   * pass (control characters never do), since a player stored before they were refused must stay reachable,
   * to be blocked above all (docs/design.md §4).
   */
  lookupOnly?: boolean;
}

const MAX_SAFE = Number.MAX_SAFE_INTEGER;

/**
 * The refusal of an id sent as a JSON number past the safe integers (|n| > 2^53 − 1): JSON.parse, like
 * most JSON readers, rounds it (9007199254740993 reads as …992), so it cannot be read as sent, only as text.
 */
export const tooLargeIntegerDetail = (name: string): string =>
  `${name} must be a string or an integer from -${MAX_SAFE} to ${MAX_SAFE}: a larger integer loses ` +
  'digits when JSON is read, so send it as a string';

/** A JSON number past the safe integers: every such number is an integer (or infinite), none exact. */
export const isBeyondSafeIntegers = (raw: unknown): boolean =>
  typeof raw === 'number' && Math.abs(raw) > MAX_SAFE;

export function text(options: TextOptions): FieldRule<string> {
  return {
    schema: {
      // The length and pattern keywords apply to the text alone; an integer is read as its decimal text.
      ...(options.acceptIntegers
        ? { type: ['string', 'integer'], minimum: -MAX_SAFE, maximum: MAX_SAFE }
        : { type: 'string' }),
      minLength: 1,
      maxLength: options.max,
      ...(options.pattern ? { pattern: options.pattern.source } : {}),
    },
    parse(raw, name) {
      const value = options.acceptIntegers && Number.isSafeInteger(raw) ? String(raw) : raw;
      if (typeof value !== 'string') {
        if (!options.acceptIntegers) return refuse('invalid_field', `${name} must be a string`);
        return refuse(
          'invalid_field',
          isBeyondSafeIntegers(raw) ? tooLargeIntegerDetail(name) : `${name} must be a string or an integer`,
        );
      }
      if (hasCharactersNotInText(value)) {
        const hasControl = hasControlCharacters(value);
        if (hasControl || !options.lookupOnly)
          return refuse('invalid_field', charactersNotInTextDetail(name, hasControl));
      }
      if (isBlank(value)) return refuse('invalid_field', `${name} must not be blank`);
      if (textLength(value) > options.max) {
        return refuse('invalid_field', `${name} must be at most ${options.max} characters long`);
      }
      if (options.pattern && !options.pattern.test(value)) {
        const { patternDetail } = options;
        const detail = typeof patternDetail === 'function' ? patternDetail(name) : patternDetail;
        return refuse('invalid_field', detail ?? `${name} has an invalid format`);
      }
      return accept(value);
    },
  };
}

export function integer(min: number, max: number): FieldRule<number> {
  return {
    schema: { type: 'integer', minimum: min, maximum: max },
    parse(raw, name) {
      const value = typeof raw === 'string' && /^-?\d+$/.test(raw) ? Number(raw) : raw;
      // One past the safe integers (9007199254740993, or a string of 20 digits) is an integer all the same,
      // only out of range: the range is what to say of it.
      if (typeof value !== 'number' || !(Number.isInteger(value) || isBeyondSafeIntegers(value))) {
        return refuse('invalid_field', `${name} must be an integer`);
      }
      if (value < min || value > max)
        return refuse('invalid_field', `${name} must be between ${min} and ${max}`);
      return accept(value);
    },
  };
}

const BOOLEAN_TEXT: Record<string, boolean> = { true: true, false: false, '1': true, '0': false };

export function boolean(): FieldRule<boolean> {
  return {
    schema: { type: 'boolean' },
    parse(raw, name) {
      if (typeof raw === 'boolean') return accept(raw);
      const value =
        typeof raw === 'string' || typeof raw === 'number' ? BOOLEAN_TEXT[String(raw)] : undefined;
      return value === undefined ? refuse('invalid_field', `${name} must be true or false`) : accept(value);
    },
  };
}

/**
 * A closed list of values; the spec gives some of them their own code and text ("Auth type not valid"),
 * which stays as it is: the values it takes go into the error's `meta.allowedValues`.
 */
export function oneOf<T extends string>(
  values: readonly T[],
  failure: { code: 'auth_type_not_valid' | 'game_code_not_valid' | 'invalid_field'; detail: string },
): FieldRule<T> {
  return {
    schema: { type: 'string', enum: values },
    parse(raw) {
      return typeof raw === 'string' && (values as readonly string[]).includes(raw)
        ? accept(raw as T)
        : refuse(failure.code, failure.detail, { allowedValues: [...values] });
    },
  };
}

export function ipAddress(): FieldRule<string> {
  return {
    schema: { type: 'string', maxLength: 45, description: 'IPv4 or IPv6 address' },
    parse(raw, name) {
      return typeof raw === 'string' && raw.length <= 45 && isIP(raw) !== 0
        ? accept(raw)
        : refuse('invalid_field', `${name} must be an IPv4 or IPv6 address`);
    },
  };
}

export function languageCode(): FieldRule<string> {
  return {
    schema: {
      type: 'string',
      pattern: '^[A-Za-z]{2}([-_][A-Za-z]{2})?$',
      description: 'ISO 639-1 code (en, de, …), optionally with a region (pt-BR)',
    },
    parse(raw, name) {
      const match = typeof raw === 'string' ? /^([A-Za-z]{2})(?:[-_]([A-Za-z]{2}))?$/.exec(raw) : null;
      const language = match?.[1]?.toLowerCase() ?? '';
      // The list of the maintained data package, not one of our own: ISO 639-1 has 183 codes, not 26².
      if (!match || !ISO_639_1_CODES.has(language)) {
        return refuse(
          'invalid_field',
          `${name} must be an ISO 639-1 language code, optionally with a region (en, pt-BR)`,
        );
      }
      const region = match[2];
      return accept(region ? `${language}-${region.toUpperCase()}` : language);
    },
  };
}

/** Longest text read as a candidate currency code: room for any code, short enough to echo in a warning. */
export const CURRENCY_CANDIDATE_MAX = 32;

/**
 * A currency the launch may apply: any text of 1–32 characters, upper-cased, is a candidate code.
 * Whether it is an ISO 4217 code, active, and mandatory are business rules (docs/design.md §5), so a
 * malformed code ("EURO") gets the spec's "Currency not found" (or a warning), not a field error.
 */
export function currencyCandidate(): FieldRule<string> {
  const candidate = text({ max: CURRENCY_CANDIDATE_MAX });
  return {
    schema: {
      type: 'string',
      minLength: 1,
      maxLength: CURRENCY_CANDIDATE_MAX,
      description:
        'ISO 4217 code, any case; another code is "Currency not found" (or a warning when optional)',
    },
    parse(raw, name) {
      const result = candidate.parse(raw, name);
      return result.ok ? accept(result.value.toUpperCase()) : result;
    },
  };
}

/** Shape only (three letters, upper-cased), for codes that must be well-formed to be taken at all. */
export function currencyCode(): FieldRule<string> {
  return {
    schema: { type: 'string', pattern: '^[A-Za-z]{3}$', description: 'ISO 4217 code' },
    parse(raw, name) {
      return typeof raw === 'string' && /^[A-Za-z]{3}$/.test(raw)
        ? accept(raw.toUpperCase())
        : refuse('invalid_field', `${name} must be a three-letter ISO 4217 currency code`);
    },
  };
}

/** Made at the first country checked: loading ICU's region names took 12-35 ms of every CLI command's start. */
let regionNames: Intl.DisplayNames | undefined;
function regionName(code: string): string | undefined {
  regionNames ??= new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });
  return regionNames.of(code);
}

/**
 * Regions CLDR (behind Intl) names that are not ISO 3166-1 countries: reserved and withdrawn codes
 * (UK, YU, …), groupings (EU, UN), pseudo-regions and ZZ "Unknown Region". XK (Kosovo) stays: it is
 * the user-assigned code everyone uses, and refusing it would lock out real players.
 */
const NOT_ISO_3166_1 = new Set(
  'AC AN BU CP CQ CS DD DG DY EA EU EZ FX HV IC NH QO RH SU TA TP UK UN VD XA XB YD YU ZR ZZ'.split(' '),
);

export function countryCode(): FieldRule<string> {
  return {
    schema: { type: 'string', pattern: '^[A-Za-z]{2}$', description: 'ISO 3166-1 alpha-2 code' },
    parse(raw, name) {
      const code = typeof raw === 'string' && /^[A-Za-z]{2}$/.test(raw) ? raw.toUpperCase() : undefined;
      return code !== undefined && !NOT_ISO_3166_1.has(code) && regionName(code) !== undefined
        ? accept(code)
        : refuse(
            'invalid_field',
            // UK is reserved, not the United Kingdom's code, and the usual mistake (docs/integration.md).
            `${name} must be an ISO 3166-1 alpha-2 country code${code === 'UK' ? ' (the United Kingdom is GB)' : ''}`,
          );
    },
  };
}

// Deliberately plain: one @, no spaces, a dot in the domain. Deliverability is the integrator's concern.
const EMAIL = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;

export function email(): FieldRule<string> {
  return {
    schema: { type: 'string', format: 'email', maxLength: 254 },
    parse(raw, name) {
      if (typeof raw === 'string' && hasCharactersNotInText(raw)) {
        return refuse('invalid_field', charactersNotInTextDetail(name, hasControlCharacters(raw)));
      }
      return typeof raw === 'string' && raw.length <= 254 && EMAIL.test(raw)
        ? accept(raw)
        : refuse('invalid_field', `${name} must be an e-mail address`);
    },
  };
}

/** An absolute http(s) URL, the only kind safe to send a player to. */
export function parseHttpUrl(raw: unknown): URL | undefined {
  if (typeof raw !== 'string' || raw.length > 2048) return undefined;
  try {
    const url = new URL(raw);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '' ? url : undefined;
  } catch {
    return undefined;
  }
}
