import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { chapterCover } from "../../seed/art/cover.ts";
import { emblem, initials } from "../../seed/art/emblem.ts";
import { textWidth, wrap } from "../../seed/art/lettering.ts";
import { comicPage } from "../../seed/art/page.ts";
import { COLOUR_PALETTES, tone } from "../../seed/art/palette.ts";
import { renderSvg } from "../../seed/art/render.ts";
import { applyScreentone } from "../../seed/art/screentone.ts";
import { seriesStyle } from "../../seed/art/style.ts";
import { buildDemoPlan } from "../../seed/demo-plan.ts";
import { createStaging, imageFilesFor, moveIntoPlace, stageImage } from "../../seed/image-store.ts";
import { mapWithConcurrency } from "../../seed/pool.ts";
import { Random } from "../../seed/random.ts";

describe("determinism", () => {
  it("plans the same demo on every run", () => {
    expect(buildDemoPlan(1_700_000_000_000)).toEqual(buildDemoPlan(1_700_000_000_000));
  });

  it("draws the same page for the same series, chapter and page, and different pages otherwise", () => {
    const style = seriesStyle("Test Series", "Test Series", false);
    expect(comicPage({ style, chapter: 1, page: 1 })).toBe(comicPage({ style, chapter: 1, page: 1 }));
    expect(comicPage({ style, chapter: 1, page: 2 })).not.toBe(comicPage({ style, chapter: 1, page: 1 }));
  });

  it("gives a seeded stream the same numbers", () => {
    const a = new Random("x");
    const b = new Random("x");
    expect(Array.from({ length: 5 }, () => a.next())).toEqual(Array.from({ length: 5 }, () => b.next()));
  });
});

describe("art", () => {
  it("renders a page, a cover and a logo to valid images of the intended sizes", async () => {
    const style = seriesStyle("Render Test", "Render Test", true);
    const page = await renderSvg(comicPage({ style, chapter: 2, page: 3 }), "webp", { screentone: true });
    const cover = await renderSvg(chapterCover({ style, chapter: 2, chapterTitle: "A Title", artist: "someone" }), "jpeg");
    const logo = await renderSvg(emblem("k", "Ink & Brushes", COLOUR_PALETTES[0]!), "png");
    expect(await sharp(page.bytes).metadata()).toMatchObject({ format: "webp", width: 900, height: 1350 });
    expect(await sharp(cover.bytes).metadata()).toMatchObject({ format: "jpeg", width: 900, height: 1350 });
    expect(await sharp(logo.bytes).metadata()).toMatchObject({ format: "png", width: 512, height: 512, hasAlpha: true });
  });

  it("turns tone-coloured pixels into dots of about the tone's density, and leaves greys alone", () => {
    const size = 64;
    const toneRgb = [255, 0, Math.round(0.4 * 255)];
    const pixels = Buffer.alloc(size * size * 3);
    for (let i = 0; i < size * size; i++) pixels.set(i < (size * size) / 2 ? toneRgb : [128, 128, 128], i * 3);
    const grey = applyScreentone(pixels, size, size, 3);
    const half = (size * size) / 2;
    const inked = Array.from(grey.subarray(0, half)).reduce((sum, v) => sum + (255 - v) / 255, 0) / half;
    expect(inked).toBeGreaterThan(0.25);
    expect(inked).toBeLessThan(0.55);
    expect(new Set(grey.subarray(half))).toEqual(new Set([128]));
    expect(tone(0.4)).toBe("#ff0066");
  });

  it("takes initials from the words that matter", () => {
    expect(initials("Ink & Brushes")).toBe("IB");
    expect(initials("The Moth Courier")).toBe("MC");
    expect(initials("Lanterns Over Kessel Bay")).toBe("LK");
    expect(initials("漫画研究会")).toBe("漫");
  });

  it("wraps balloon text into balanced lines within the width", () => {
    // Greedy wrapping would leave "ONE." alone on the second line.
    const lines = wrap("ONE MORE PAGE. JUST ONE.", 23, 250);
    expect(lines).toHaveLength(2);
    for (const line of lines) expect(line.split(" ").length).toBeGreaterThanOrEqual(2);
    for (const line of wrap("GRANDMA NEVER MENTIONED ANY OF THIS TO ME", 23, 200)) expect(textWidth(line, 23)).toBeLessThanOrEqual(200);
  });
});

describe("image staging", () => {
  it("moves staged files into place and refuses to overwrite, removing what it moved", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "seed-stage-"));
    try {
      const files = imageFilesFor(dir);
      const staging = createStaging(files);
      const bytes = await sharp({ create: { width: 4, height: 4, channels: 3, background: "#f00" } })
        .png()
        .toBuffer();
      const image = { bytes, format: "png" as const, width: 4, height: 4 };
      const a = await stageImage(staging, 1, image, 0, "a.png");
      const b = await stageImage(staging, 2, image, 0, "b.png");
      fs.mkdirSync(path.dirname(files.originalPath(2, "png")), { recursive: true });
      fs.writeFileSync(files.originalPath(2, "png"), "someone else's file");
      expect(() => moveIntoPlace(files, staging, [a, b])).toThrow(/Refusing to overwrite/);
      expect(fs.existsSync(files.originalPath(1, "png"))).toBe(false);
      expect(fs.readFileSync(files.originalPath(2, "png"), "utf8")).toBe("someone else's file");
      fs.rmSync(files.originalPath(2, "png"));
      moveIntoPlace(files, staging, [await stageImage(staging, 1, image, 0, "a.png"), await stageImage(staging, 2, image, 0, "b.png")]);
      expect(fs.readFileSync(files.originalPath(1, "png"))).toEqual(bytes);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("mapWithConcurrency", () => {
  it("keeps the order and never runs more than the limit at once", async () => {
    let running = 0;
    let peak = 0;
    const out = await mapWithConcurrency([5, 1, 3, 2, 4], 2, async (n) => {
      peak = Math.max(peak, ++running);
      await new Promise((r) => setTimeout(r, n));
      running--;
      return n * 10;
    });
    expect(out).toEqual([50, 10, 30, 20, 40]);
    expect(peak).toBe(2);
  });

  it("waits for running tasks before reporting a failure", async () => {
    let finished = 0;
    const run = mapWithConcurrency([1, 2, 3], 2, async (n) => {
      await new Promise((r) => setTimeout(r, n === 1 ? 1 : 20));
      if (n === 1) throw new Error("boom");
      finished++;
    });
    await expect(run).rejects.toThrow("boom");
    expect(finished).toBe(1);
  });
});
