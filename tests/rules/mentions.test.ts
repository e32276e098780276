import { describe, expect, it } from "vitest";
import { findMentions, MENTIONS_MAX } from "../../server/rules/mentions.ts";

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
