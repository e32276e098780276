/**
 * Text for XML 1.0 (the Atom feeds and the sitemaps): characters XML forbids (controls other than tab and
 * newlines, lone surrogates, U+FFFE and U+FFFF) are dropped, and the five markup characters escaped, so the
 * text is safe in element content and in quoted attributes alike.
 */
const NOT_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

const ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" };

export function xmlText(text: string): string {
  return text.replace(NOT_XML, "").replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}

/** `<name>text</name>`, escaped. */
export const xmlElement = (name: string, text: string) => `<${name}>${xmlText(text)}</${name}>`;
