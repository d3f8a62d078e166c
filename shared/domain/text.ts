// Text PostgreSQL cannot store: a NUL character (text columns refuse it) and UTF-16 surrogates that
// are not part of a pair (they have no UTF-8 form, so JSON and the wire protocol refuse them).
// eslint-disable-next-line no-control-regex -- finding NUL is the point
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** The message shown for such text, the same wherever it is refused. */
export const UNSTORABLE_TEXT_MESSAGE =
  "Text may not contain NUL characters or invalid Unicode (unpaired surrogates). Remove them and try again.";

/** True when the string holds a character the database cannot store. */
export const hasUnstorableText = (value: string): boolean => UNSTORABLE.test(value);
