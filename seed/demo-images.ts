import { avatar } from "./art/avatar.ts";
import { banner } from "./art/banner.ts";
import { chapterCover } from "./art/cover.ts";
import { emblem } from "./art/emblem.ts";
import { comicPage } from "./art/page.ts";
import { pickPalette } from "./art/palette.ts";
import { renderSvg, type Encoding } from "./art/render.ts";
import { seriesStyle } from "./art/style.ts";
import type { DemoPlan } from "./demo-plan.ts";
import { slug, stageImage, type StoredImage } from "./image-store.ts";
import { mapWithConcurrency } from "./pool.ts";
import { randomFor } from "./random.ts";

const MINUTE = 60_000;

/** One image to draw: who owns it, when it was "uploaded", and how to draw it. */
export interface ImageJob {
  key: string;
  owner: string;
  fileName: string;
  createdAt: number;
  encoding: Encoding;
  /** A black-and-white manga page (see art/screentone.ts). */
  screentone?: boolean;
  svg: () => string;
}

export interface OwnedImage {
  image: StoredImage;
  owner: string;
}

/** Image keys, shared by the jobs and by the code that links images to content. */
export const imageKey = {
  avatar: (user: string) => `avatar:${user}`,
  userBanner: (user: string) => `user-banner:${user}`,
  hubLogo: (hub: string) => `hub-logo:${hub}`,
  hubBanner: (hub: string) => `hub-banner:${hub}`,
  seriesLogo: (series: string) => `series-logo:${series}`,
  seriesBanner: (series: string) => `series-banner:${series}`,
  cover: (series: string, chapter: number) => `cover:${series}:${chapter}`,
  page: (series: string, chapter: number, page: number) => `page:${series}:${chapter}:${page}`,
};

/** Every image the demo needs, in a fixed order (their ids follow it). */
export function demoImageJobs(plan: DemoPlan, photo: Encoding): ImageJob[] {
  const jobs: ImageJob[] = [];
  const pad = (value: number) => String(value).padStart(2, "0");
  const ext = photo === "jpeg" ? "jpg" : photo;

  for (const user of plan.users) {
    const palette = pickPalette(randomFor("user-palette", user.username));
    jobs.push(
      {
        key: imageKey.avatar(user.username),
        owner: user.username,
        fileName: `${slug(user.username)}-avatar.${ext}`,
        createdAt: user.joinedAt + 30 * MINUTE,
        encoding: photo,
        svg: () => avatar(user.username),
      },
      {
        key: imageKey.userBanner(user.username),
        owner: user.username,
        fileName: `${slug(user.username)}-banner.${ext}`,
        createdAt: user.joinedAt + 40 * MINUTE,
        encoding: photo,
        svg: () => banner({ key: `user:${user.username}`, palette }),
      },
    );
  }

  for (const hub of plan.hubs) {
    const palette = pickPalette(randomFor("hub-palette", hub.name));
    const at = hub.createdAt - 20 * MINUTE;
    jobs.push(
      {
        key: imageKey.hubLogo(hub.name),
        owner: hub.owner,
        fileName: `${slug(hub.name)}-logo.png`,
        createdAt: at,
        encoding: "png",
        svg: () => emblem(`hub:${hub.name}`, hub.name, palette),
      },
      {
        key: imageKey.hubBanner(hub.name),
        owner: hub.owner,
        fileName: `${slug(hub.name)}-banner.${ext}`,
        createdAt: at,
        encoding: photo,
        svg: () => banner({ key: `hub:${hub.name}`, palette }),
      },
    );
  }

  for (const series of plan.series) {
    const style = seriesStyle(series.name, series.name, series.mono);
    const at = series.createdAt - 20 * MINUTE;
    const name = slug(series.name);
    jobs.push(
      {
        key: imageKey.seriesLogo(series.name),
        owner: series.author,
        fileName: `${name}-logo.png`,
        createdAt: at,
        encoding: "png",
        svg: () => emblem(`series:${series.name}`, series.name, style.colour),
      },
      {
        key: imageKey.seriesBanner(series.name),
        owner: series.author,
        fileName: `${name}-banner.${ext}`,
        createdAt: at,
        encoding: photo,
        svg: () =>
          banner({ key: `series:${series.name}`, palette: style.colour, cast: style.cast, settings: style.settings, kind: "landscape" }),
      },
    );
    for (const chapter of series.chapters) {
      const ch = chapter.number;
      const uploaded = chapter.date - 30 * MINUTE;
      jobs.push({
        key: imageKey.cover(series.name, ch),
        owner: series.author,
        fileName: `${name}-ch${pad(ch)}-cover.${ext}`,
        createdAt: uploaded,
        encoding: photo,
        svg: () => chapterCover({ style, chapter: ch, chapterTitle: chapter.title, artist: series.author }),
      });
      for (let page = 1; page <= chapter.pageCount; page++) {
        jobs.push({
          key: imageKey.page(series.name, ch, page),
          owner: series.author,
          fileName: `${name}-ch${pad(ch)}-p${pad(page)}.${ext}`,
          createdAt: uploaded,
          encoding: photo,
          screentone: series.mono,
          svg: () => comicPage({ style, chapter: ch, page }),
        });
      }
    }
  }
  return jobs;
}

/**
 * Draws every job into the staging folder, `concurrency` at a time, with ids from `firstId` on
 * in job order. Answers the stored images by key.
 */
export async function renderDemoImages(
  jobs: readonly ImageJob[],
  staging: string,
  firstId: number,
  concurrency: number,
  onProgress?: (done: number, total: number) => void,
): Promise<Map<string, OwnedImage>> {
  let done = 0;
  const stored = await mapWithConcurrency(jobs, concurrency, async (job, index) => {
    const rendered = await renderSvg(job.svg(), job.encoding, { screentone: job.screentone });
    const image: StoredImage = await stageImage(staging, firstId + index, rendered, job.createdAt, job.fileName);
    onProgress?.(++done, jobs.length);
    return { image, owner: job.owner };
  });
  return new Map(jobs.map((job, i) => [job.key, stored[i]!]));
}
