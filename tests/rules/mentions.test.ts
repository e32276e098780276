import { describe, expect, it } from "vitest";
import { findMentions, MENTIONS_MAX, splitMentions } from "../../server/rules/mentions.ts";

describe("findMentions", () => {
  it("finds @usernames, lower-cased, distinct, in order of first mention", () => {
    expect(findMentions("Hi @Alice, @bob_2 and @ALICE again (@carol)!")).toEqual(["alice", "bob_2", "carol"]);
  });

  it("takes the username's characters only: letters, digits, underscore", () => {
    expect(findMentions("@dave's page, @erin-x, @frank.")).toEqual(["dave", "erin", "frank"]);
  });

  it("ignores email addresses and runs too short or too long to be a username", () => {
    expect(findMentions("mail me@example.com, @ab, @" + "a".repeat(31) + ", @" + "b".repeat(30))).toEqual(["b".repeat(30)]);
  });

  it("answers at most 10 distinct names", () => {
    const names = Array.from({ length: 15 }, (_, i) => `user${i}`);

    expect(findMentions(names.map((n) => `@${n} @${n}`).join(" "))).toEqual(names.slice(0, MENTIONS_MAX));
  });

  it("finds nothing in text without mentions", () => {
    expect(findMentions("")).toEqual([]);
    expect(findMentions("@ @_ plain text")).toEqual([]);
  });

  it("takes linear time on hostile input", () => {
    const hostile = "@".repeat(200_000) + "a".repeat(200_000) + "@a".repeat(100_000);
    const started = performance.now();

    findMentions(hostile);

    expect(performance.now() - started).toBeLessThan(500);
  });
});

describe("splitMentions", () => {
  it("splits text into plain pieces and mentions as written: not after a name character, 3 to 30 name characters", () => {
    expect(splitMentions("hi @ann_1, a@bob.com @xy @" + "z".repeat(31) + " (@Carol)")).toEqual([
      { text: "hi " },
      { text: "@ann_1", mention: "ann_1" },
      { text: ", a@bob.com @xy @" + "z".repeat(31) + " (" },
      { text: "@Carol", mention: "Carol" },
      { text: ")" },
    ]);
  });

  it("gives back the text whole when it mentions nobody, and nothing for no text", () => {
    expect(splitMentions("plain @ab text")).toEqual([{ text: "plain @ab text" }]);
    expect(splitMentions("")).toEqual([]);
  });

  it("takes linear time on hostile input", () => {
    const hostile = "@".repeat(200_000) + "a".repeat(200_000) + "@a@".repeat(100_000);
    const started = performance.now();

    splitMentions(hostile);

    expect(performance.now() - started).toBeLessThan(500);
  });
});

describe("the web's links and the API's notifications", () => {
  // What the markdown links (app/lib/mentions.ts) is whom the API tells: the same splitter's mentions.
  const texts = [
    "Hi @Alice, @bob_2 and @ALICE again (@carol)!",
    "@dave's page, @erin-x, @frank.",
    "mail me@example.com, @ab, @" + "a".repeat(31) + ", @" + "b".repeat(30),
    "@@double @a@b @abc@def x@yz_1 _@ghi 9@jkl @mno_ @_pq",
    "line one\n@first_line\tand @tab\u00e9 @émile @ok",
    Array.from({ length: 15 }, (_, i) => `@Name${i} @name${i}`).join(" "),
    "",
    "@ @_ plain text",
  ];

  it.each(texts)("finds in %j the mentions the splitter yields, lower-cased, distinct, at most 10", (text) => {
    const split = splitMentions(text).flatMap((p) => (p.mention === undefined ? [] : [p.mention.toLowerCase()]));

    expect(findMentions(text)).toEqual([...new Set(split)].slice(0, MENTIONS_MAX));
  });
});
