import { describe, expect, it } from "vitest";
import { email } from "../../server/rules/auth.ts";
import { NewPostBody } from "../../server/rules/post.ts";
import { nameKey } from "../../server/rules/text.ts";

/** Milliseconds one call takes: the best of two, so a busy machine does not fail the test. */
function timeOf(fn: () => unknown): number {
  let best = Infinity;
  for (let i = 0; i < 2; i++) {
    const start = performance.now();
    fn();
    best = Math.min(best, performance.now() - start);
  }
  return best;
}

// Shapes that made the old rules slow: a backtracking email pattern, and Unicode normalization, which sorts
// each run of combining marks in quadratic time.
const WORST = {
  "dots between two @": "a@" + ".".repeat(64_000) + "@",
  "a long dotted domain ending in @": "a@b" + ".b".repeat(200_000) + "@",
  "a long run of combining marks": "a" + "\u0301\u0316".repeat(200_000),
  "a megabyte of spaces": " ".repeat(1_000_000) + "x",
};

describe("rules on hostile input", () => {
  for (const [shape, value] of Object.entries(WORST)) {
    it(`the email rule refuses ${shape} in well under 100 ms`, () => {
      expect(timeOf(() => email.safeParse(value))).toBeLessThan(100);
      expect(email.safeParse(value).success).toBe(false);
    });

    it(`the text rules refuse ${shape} in every post field in well under 100 ms`, () => {
      const body = { title: value, content: value, description: value, hubId: 1 };
      expect(timeOf(() => NewPostBody.safeParse(body))).toBeLessThan(100);
      expect(NewPostBody.safeParse(body).success).toBe(false);
    });
  }

  it("a name lookup of a long run of combining marks is fast and matches no name", () => {
    const value = "a" + "\u0301\u0316".repeat(8_000); // a 16 KB path parameter
    expect(timeOf(() => nameKey(value))).toBeLessThan(100);
  });

  it("refuses more than 30 combining marks in a row, with the field's message", () => {
    const result = NewPostBody.safeParse({ title: "Zalgo" + "\u0301".repeat(31), content: "Long enough content", hubId: 1 });
    expect(result.error?.issues[0]?.message).toBe("Title contains invalid characters");
  });

  it("keeps accents and up to 30 marks in a row", () => {
    const result = NewPostBody.safeParse({ title: "Cafe\u0301 " + "a" + "\u0301".repeat(30), content: "Long enough content", hubId: 1 });
    expect(result.success).toBe(true);
  });

  it("an oversized field gets the field's length message", () => {
    const result = NewPostBody.safeParse({ title: "x".repeat(1_000_000), content: "Long enough content", hubId: 1 });
    expect(result.error?.issues[0]?.message).toBe("Title must be less than 200 characters");
  });

  it("still accepts ordinary addresses and refuses malformed ones", () => {
    for (const ok of ["a@b.co", "x.y+z@sub.example.org", "ä@例え.jp", "  a@b.co  "]) expect(email.safeParse(ok).success, ok).toBe(true);
    for (const bad of ["a@b", "a@b..c", "a@.b", "a b@c.d", "a@b.c.", "a@@b.c", `${"a".repeat(250)}@b.co`]) {
      expect(email.safeParse(bad).success, bad).toBe(false);
    }
  });
});
