import { describe, expect, it } from "vitest";
import { relativeDate } from "../../app/lib/format.ts";

describe("relativeDate", () => {
  const now = Date.parse("2026-03-15T12:00:00.000Z");
  const before = (seconds: number) => new Date(now - seconds * 1000).toISOString();

  it.each([
    [0, "just now"],
    [59, "just now"],
    [60, "1 minute ago"],
    [119, "1 minute ago"],
    [120, "2 minutes ago"],
    [3599, "59 minutes ago"],
    [3600, "1 hour ago"],
    [2 * 3600, "2 hours ago"],
    [86_399, "23 hours ago"],
    [86_400, "1 day ago"],
    [3 * 86_400, "3 days ago"],
    [30 * 86_400 - 1, "29 days ago"],
  ])("%i seconds ago reads %j", (seconds, text) => {
    expect(relativeDate(before(seconds), now)).toBe(text);
  });

  it("gives the date, in UTC, from 30 days back", () => {
    expect(relativeDate(before(30 * 86_400), now)).toBe("Feb 13, 2026");
    expect(relativeDate("2024-12-31T23:59:59.000Z", now)).toBe("Dec 31, 2024");
  });

  it("reads a time ahead of the clock as just now, and a date it cannot read as nothing", () => {
    expect(relativeDate(before(-600), now)).toBe("just now");
    expect(relativeDate("not a date", now)).toBe("");
  });
});
