import { describe, expect, it } from "vitest";
import { safeUrl } from "../../app/lib/markdown-links.ts";

describe("markdown links", () => {
  it.each(["http://example.com/a", "https://example.com", "irc://irc.libera.chat/inkwell", "ircs://irc.example:6697/c", "mailto:hi@example.com", "xmpp:me@example.com", "HTTPS://EXAMPLE.COM"])(
    "keeps %s",
    (url) => expect(safeUrl(url)).toBe(url),
  );

  it.each(["/hubs/Manga%20Lovers", "../up", "#section", "?page=2", "./a:b"])("keeps the relative %s", (url) => expect(safeUrl(url)).toBe(url));

  it.each(["javascript:alert(1)", " JavaScript:alert(1)", "data:text/html;base64,PHNjcmlwdD4=", "vbscript:msgbox", "file:///etc/passwd", "ftp://example.com"])(
    "drops %s",
    (url) => expect(safeUrl(url)).toBe(""),
  );
});
