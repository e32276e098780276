// The reader's pure helpers: pairing pages into spreads, keys and swipes by direction, the series'
// default mode, and the remembered settings (app/lib/reader.ts, reader-input.ts, reader.server.ts).
import { describe, expect, it } from "vitest";
import { keyStep, swipeStep } from "../../app/components/reader/reader-input.ts";
import { modeForDirection } from "../../app/lib/reader.ts";
import { pageHref, pairSpreads, spreadIndex } from "../../app/lib/page-spreads.ts";
import { REMEMBERED_SERIES, settingsFor, withChoice, type StoredReader } from "../../app/lib/reader.server.ts";

const tall = { width: 800, height: 1200 };
const wide = { width: 1600, height: 1200 };
const pages = (...kinds: ("t" | "w")[]) => kinds.map((k) => (k === "t" ? tall : wide));

describe("pairSpreads", () => {
  it("keeps the cover alone and pairs the rest two by two, a last odd page alone", () => {
    expect(pairSpreads(pages("t", "t", "t", "t", "t"), false)).toEqual([[1], [2, 3], [4, 5]]);
    expect(pairSpreads(pages("t", "t", "t", "t"), false)).toEqual([[1], [2, 3], [4]]);
    expect(pairSpreads(pages("t"), false)).toEqual([[1]]);
    expect(pairSpreads([], false)).toEqual([]);
  });

  it("shifted by one page: page 2 alone too, the pairs one page later", () => {
    expect(pairSpreads(pages("t", "t", "t", "t", "t"), true)).toEqual([[1], [2], [3, 4], [5]]);
    expect(pairSpreads(pages("t", "t", "t", "t", "t", "t"), true)).toEqual([[1], [2], [3, 4], [5, 6]]);
  });

  it("shows a page wider than tall alone, and pairing starts again after it", () => {
    expect(pairSpreads(pages("t", "t", "w", "t", "t"), false)).toEqual([[1], [2], [3], [4, 5]]);
    expect(pairSpreads(pages("t", "t", "t", "w", "t", "t", "t"), false)).toEqual([[1], [2, 3], [4], [5, 6], [7]]);
    expect(pairSpreads(pages("w", "w"), true)).toEqual([[1], [2]]);
  });

  it("finds the spread of a page", () => {
    const spreads = pairSpreads(pages("t", "t", "t", "t", "t"), false);
    expect([1, 2, 3, 4, 5].map((n) => spreadIndex(spreads, n))).toEqual([0, 1, 1, 2, 2]);
  });
});

describe("keys and swipes by direction", () => {
  it("left to right: ArrowRight goes forward, ArrowLeft back; right to left the other way", () => {
    expect(keyStep("ArrowRight", "ltr")).toBe(1);
    expect(keyStep("ArrowLeft", "ltr")).toBe(-1);
    expect(keyStep("ArrowLeft", "rtl")).toBe(1);
    expect(keyStep("ArrowRight", "rtl")).toBe(-1);
    expect(keyStep("ArrowDown", "rtl")).toBe(0);
    expect(keyStep("a", "ltr")).toBe(0);
  });

  it("a swipe drags the page: to the left goes forward left to right, to the right goes forward right to left", () => {
    expect(swipeStep(-100, "ltr")).toBe(1);
    expect(swipeStep(100, "ltr")).toBe(-1);
    expect(swipeStep(100, "rtl")).toBe(1);
    expect(swipeStep(-100, "rtl")).toBe(-1);
  });
});

describe("modes and remembered settings", () => {
  it("opens a series in its reading direction, vertical unless set", () => {
    expect(modeForDirection("rtl")).toBe("rtl");
    expect(modeForDirection("ltr")).toBe("ltr");
    expect(modeForDirection("vertical")).toBe("strip");
    expect(modeForDirection(undefined)).toBe("strip");
  });

  it("uses the series' default until the reader picks a mode for that series; layout and fit are for every series", () => {
    let stored: StoredReader = { series: [] };
    expect(settingsFor(stored, 7, "rtl")).toEqual({ mode: "rtl", layout: "single", fit: "height", shift: false });
    stored = withChoice(stored, 7, { mode: "strip" });
    stored = withChoice(stored, 7, { shift: true });
    stored = withChoice(stored, 9, { layout: "spread" });
    stored = withChoice(stored, null, { fit: "width" });
    expect(settingsFor(stored, 7, "rtl")).toEqual({ mode: "strip", layout: "spread", fit: "width", shift: true });
    // Another series: its own default, the shared layout and fit, not shifted.
    expect(settingsFor(stored, 8, "rtl")).toEqual({ mode: "rtl", layout: "spread", fit: "width", shift: false });
    // A shift alone keeps the series' default mode.
    stored = withChoice(stored, 8, { shift: true });
    expect(settingsFor(stored, 8, "ltr")).toMatchObject({ mode: "ltr", shift: true });
  });

  it("remembers the most recent series only", () => {
    let stored: StoredReader = { series: [] };
    for (let id = 1; id <= REMEMBERED_SERIES + 5; id++) stored = withChoice(stored, id, { mode: "rtl" });
    expect(stored.series).toHaveLength(REMEMBERED_SERIES);
    expect(stored.series[0]![0]).toBe(REMEMBERED_SERIES + 5);
    expect(settingsFor(stored, 1, "strip").mode).toBe("strip");
    expect(settingsFor(stored, REMEMBERED_SERIES + 5, "strip").mode).toBe("rtl");
  });

  it("keeps the rest of the query in page addresses", () => {
    expect(pageHref("?page=2&x=1", 3)).toBe("?page=3&x=1#reader");
    expect(pageHref("?page=2", 1)).toBe("?#reader");
  });
});
