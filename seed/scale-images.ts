import fs from "node:fs";
import path from "node:path";
import type { ImageFiles } from "../server/images/folder-storage.ts";
import type { ImageRow } from "../server/images/images.service.ts";
import { avatar } from "./art/avatar.ts";
import { banner } from "./art/banner.ts";
import { chapterCover } from "./art/cover.ts";
import { emblem } from "./art/emblem.ts";
import { comicPage } from "./art/page.ts";
import { COLOUR_PALETTES } from "./art/palette.ts";
import { renderSvg, type RenderedImage } from "./art/render.ts";
import { seriesStyle } from "./art/style.ts";
import { CONTENT_TYPES } from "../server/images/image-formats.ts";
import { mapWithConcurrency } from "./pool.ts";

/**
 * The large set reuses a small pool of drawn images. Every artist still gets image rows of their
 * own (an artist's covers and pages must be images they uploaded), but the files behind those
 * rows are hard links to the pool's files, so ten thousand rows cost a few megabytes.
 */

export const POOL_COVERS = 4;
export const POOL_PAGES = 12;

/** Offsets of one artist's rows, from the artist's first image id. */
export const ARTIST_IMAGE = {
  avatar: 0,
  userBanner: 1,
  hubLogo: 2,
  hubBanner: 3,
  seriesLogo: 4,
  seriesBanner: 5,
  firstCover: 6,
  firstPage: 6 + POOL_COVERS,
} as const;
export const IMAGES_PER_ARTIST = 6 + POOL_COVERS + POOL_PAGES;

export interface PoolImage {
  kind: keyof typeof ARTIST_IMAGE | "cover" | "page";
  variant: number;
  rendered: RenderedImage;
  fileName: string;
}

const kindsOf = (slot: number): { kind: PoolImage["kind"]; variant: number } => {
  if (slot < ARTIST_IMAGE.firstCover) return { kind: (Object.keys(ARTIST_IMAGE) as (keyof typeof ARTIST_IMAGE)[])[slot]!, variant: 0 };
  if (slot < ARTIST_IMAGE.firstPage) return { kind: "cover", variant: slot - ARTIST_IMAGE.firstCover };
  return { kind: "page", variant: slot - ARTIST_IMAGE.firstPage };
};

/** Draws the pool: four of each profile picture, logo and banner, four covers and twelve pages. */
export async function renderPool(concurrency: number): Promise<PoolImage[][]> {
  const colour = seriesStyle("scale-colour", "Ink Hub Weekly", false);
  const mono = seriesStyle("scale-mono", "Ink Hub Manga", true);
  const VARIANTS = 4;
  const jobs: { slot: number; variant: number; draw: () => Promise<RenderedImage>; fileName: string }[] = [];
  for (let slot = 0; slot < IMAGES_PER_ARTIST; slot++) {
    const { kind, variant: fixed } = kindsOf(slot);
    const variants = kind === "cover" || kind === "page" ? 1 : VARIANTS;
    for (let v = 0; v < variants; v++) {
      const variant = kind === "cover" || kind === "page" ? fixed : v;
      const palette = COLOUR_PALETTES[(variant * 3 + slot) % COLOUR_PALETTES.length]!;
      const draw = (): Promise<RenderedImage> => {
        switch (kind) {
          case "avatar":
            return renderSvg(avatar(`scale-${variant}`), "webp");
          case "userBanner":
          case "hubBanner":
          case "seriesBanner":
            return renderSvg(banner({ key: `scale-${kind}-${variant}`, palette }), "webp");
          case "hubLogo":
          case "seriesLogo":
            return renderSvg(
              emblem(`scale-${kind}-${variant}`, ["Ink Hub", "Panel Club", "Story Lab", "Comic Den"][variant]!, palette),
              "png",
            );
          case "cover":
            return renderSvg(
              chapterCover({ style: variant % 2 ? mono : colour, chapter: variant + 1, chapterTitle: "Beginnings", artist: "Inkwell" }),
              "webp",
            );
          default: {
            const isMono = variant >= 8;
            return renderSvg(comicPage({ style: isMono ? mono : colour, chapter: 1, page: (variant % 8) + 1 }), "webp", {
              screentone: isMono,
            });
          }
        }
      };
      jobs.push({ slot, variant, draw, fileName: `${kind}-${variant + 1}` });
    }
  }
  const drawn = await mapWithConcurrency(jobs, concurrency, async (job) => ({ ...job, rendered: await job.draw() }));
  const bySlot: PoolImage[][] = Array.from({ length: IMAGES_PER_ARTIST }, () => []);
  for (const job of drawn) {
    bySlot[job.slot]!.push({
      kind: kindsOf(job.slot).kind,
      variant: job.variant,
      rendered: job.rendered,
      fileName: `${job.fileName}.${job.rendered.format}`,
    });
  }
  return bySlot;
}

/** An Image row before it is written (publishedAt is the writer's to set). */
export type ImageRowValues = Omit<ImageRow, "publishedAt" | "fileKey">;

/**
 * Writes the pool's files once, then one row and one hard link per artist and slot. Calls
 * `insert` for every row. Falls back to copying where the disk has no hard links.
 */
export function linkArtistImages(
  files: ImageFiles,
  pool: PoolImage[][],
  artists: readonly { userId: number; firstImageId: number; createdAt: number }[],
  insert: (row: ImageRowValues) => void,
): void {
  fs.mkdirSync(files.root, { recursive: true });
  const poolDir = fs.mkdtempSync(path.join(files.root, ".scale-pool-"));
  try {
    const poolFiles = pool.map((variants) =>
      variants.map((img) => {
        const file = path.join(poolDir, img.fileName);
        fs.writeFileSync(file, img.rendered.bytes);
        return file;
      }),
    );
    artists.forEach((artist, a) => {
      for (let slot = 0; slot < IMAGES_PER_ARTIST; slot++) {
        const variant = a % pool[slot]!.length;
        const img = pool[slot]![variant]!;
        const id = artist.firstImageId + slot;
        const target = files.originalPath(id, img.rendered.format);
        fs.mkdirSync(path.dirname(target), { recursive: true });
        try {
          fs.linkSync(poolFiles[slot]![variant]!, target);
        } catch {
          fs.copyFileSync(poolFiles[slot]![variant]!, target);
        }
        insert({
          id,
          fileName: img.fileName,
          contentType: CONTENT_TYPES[img.rendered.format],
          size: img.rendered.bytes.length,
          width: img.rendered.width,
          height: img.rendered.height,
          authorId: artist.userId,
          createdAt: artist.createdAt,
        });
      }
    });
  } finally {
    // The links keep the bytes; the pool's own names are no longer needed.
    fs.rmSync(poolDir, { recursive: true, force: true });
  }
}
