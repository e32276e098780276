// Building blocks for the validation rules. Pure (no Node imports): the web forms import them too.
import { z } from "zod";

/** Length in user-perceived characters (code points), so an emoji counts once. */
export const charCount = (s: string) => Array.from(s).length;

// Unicode normalization sorts each run of combining marks, in time that grows with the square of the
// run: 100,000 alternating marks take seconds. No real text needs more than 30 in a row (Unicode's
// "stream-safe" limit, UAX #15), so longer runs are refused before anything normalizes them.
const LONG_MARK_RUN = /\p{M}{31}/u;
export const hasLongMarkRun = (s: string) => LONG_MARK_RUN.test(s);

/**
 * Composed (NFC) text can be shorter than what was sent (decomposed accents, Hangul jamo: at most 3 code
 * points, 6 UTF-16 units, per character), so more than this many units can never fit in `max` characters.
 * Checked before normalizing, so an oversized field costs nothing.
 */
const rawLimit = (max: number) => max * 6 + 64;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
// Control characters other than tab, line feed and carriage return.
const CONTROL_IN_TEXT = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;
// Names also refuse the line and paragraph separators and the bidi embeddings, overrides and isolates (spoofing).
const CONTROL_IN_NAME = /[\u0000-\u001F\u007F-\u009F\u2028\u2029\u202A-\u202E\u2066-\u2069]/;

/**
 * True when no name or username can be this text: it holds a character names refuse. A lookup by such a path
 * segment is a 404 without a query (PostgreSQL refuses a NUL in any text; FTS5 in a phrase).
 */
export const cannotBeAName = (text: string) => CONTROL_IN_NAME.test(text);

export interface TextRule {
  /** Message when missing or empty; absent means the field is optional (defaults to ""). */
  required?: string;
  min?: readonly [number, string];
  max: readonly [number, string];
  /** Single-line names: no control characters at all. */
  singleLine?: boolean;
}

/** A trimmed string with the messages of docs/web.md §4, checked in the order listed there. */
export function text(label: string, rule: TextRule) {
  const [max, maxMessage] = rule.max;
  const base = z
    .string({ error: (issue) => (issue.input === undefined || issue.input === null ? rule.required : `${label} must be text`) })
    // Cheap checks first, each stopping the rest: nothing below runs on an oversized or abusive string.
    .refine((s) => s.length <= rawLimit(max), { message: maxMessage, abort: true })
    .refine((s) => !hasLongMarkRun(s), { message: `${label} contains invalid characters`, abort: true })
    .normalize("NFC") // composed first, so "é" typed as e + accent counts as one character
    .trim()
    .refine((s) => !LONE_SURROGATE.test(s), `${label} contains invalid characters`)
    .refine((s) => !(rule.singleLine ? CONTROL_IN_NAME : CONTROL_IN_TEXT).test(s), `${label} cannot contain control characters`);
  let checked = rule.required ? base.refine((s) => s.length > 0, rule.required) : base;
  if (rule.min) {
    const [min, message] = rule.min;
    checked = checked.refine((s) => (!rule.required && s.length === 0) || charCount(s) >= min, message);
  }
  checked = checked.refine((s) => charCount(s) <= max, maxMessage);
  if (rule.required) return checked;
  // Optional text: missing or null means empty.
  return z.preprocess((v) => (v === undefined || v === null ? "" : v), checked);
}

/**
 * The key that makes names unique case-insensitively: NFKC folds width variants; upper then lower case folds
 * letters like "ß" and "SS" together, which lower case alone does not.
 */
export const nameKey = (name: string) =>
  // A lookup of an abusive string (a path parameter, a search) skips normalizing: no stored name has such a run.
  hasLongMarkRun(name) ? name.toLowerCase() : name.normalize("NFKC").toUpperCase().toLowerCase();

// A name must show something: a letter, digit, symbol or punctuation mark, not only invisible characters.
const VISIBLE = /[\p{L}\p{N}\p{S}\p{P}]/u;

/** Names that would shadow the API's own routes (/hubs/top, /hubs/search, /hubs/id/...). */
const RESERVED_NAMES = ["top", "search", "id"] as const;

export function entityName(label: string, rule: { required: string; min: readonly [number, string]; max: readonly [number, string] }) {
  return text(label, { ...rule, singleLine: true })
    .refine((s) => s.length === 0 || VISIBLE.test(s), rule.required)
    .refine((s) => !s.includes("/"), `${label} cannot contain "/"`)
    .refine((s) => !(RESERVED_NAMES as readonly string[]).includes(nameKey(s)), `"top", "search" and "id" are reserved names`);
}

export const MAX_ID = 2_147_483_647;

/** An optional reference to an uploaded image: a positive id, or null to clear it. */
export function imageRef(label: string) {
  return z
    .number({ error: `${label} must be an image id` })
    .int(`${label} must be an image id`)
    .min(1, `${label} must be an image id`)
    .max(MAX_ID, `${label} must be an image id`)
    .nullable()
    .optional();
}

/** A numeric id in a URL path: digits only, within SQLite's and Prisma's 32-bit range. */
export function idParam(label: string) {
  const message = `${label} must be a positive whole number`;
  return z
    .string()
    .regex(/^[0-9]{1,10}$/, message)
    .transform(Number)
    .refine((n) => n >= 1 && n <= MAX_ID, message);
}
