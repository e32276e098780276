import { describe, expect, it } from "vitest";
import { formatDate, groupDigits, plural, relativeDate } from "../../app/lib/format.ts";

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

describe("formatDate and groupDigits write what Intl's en-US does", () => {
  const intlDate = new Intl.DateTimeFormat("en-US", { year: "numeric", month: "short", day: "numeric", timeZone: "UTC" });

  it("for every day of 1999–2001 and the first of each month from 1970 to 2100, at either end of the UTC day", () => {
    const days: number[] = [];
    for (let t = Date.UTC(1999, 0, 1); t < Date.UTC(2002, 0, 1); t += 86_400_000) days.push(t, t + 86_399_999);
    for (let year = 1970; year <= 2100; year++) for (let month = 0; month < 12; month++) days.push(Date.UTC(year, month, 1));
    for (const t of days) expect(formatDate(new Date(t).toISOString())).toBe(intlDate.format(t));
  });

  it("groups whole numbers by thousands, and leaves the rest to toLocaleString", () => {
    const numbers = [0, 1, 9, 12, 999, 1000, 1001, 12_345, 999_999, 1_000_000, 123_456_789, -1, -1234, -1_000_000];
    for (let n = 1; n < Number.MAX_SAFE_INTEGER / 7; n *= 7) numbers.push(n, n + 1);
    numbers.push(Number.MAX_SAFE_INTEGER, 1.5, 1234.5678, 2 ** 60);
    for (const n of numbers) expect(groupDigits(n)).toBe(n.toLocaleString("en-US"));
    expect(plural(1234, "member")).toBe("1,234 members");
    expect(plural(1, "member")).toBe("1 member");
  });
});
