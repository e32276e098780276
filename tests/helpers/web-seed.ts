// Demo-looking data for the web tests and screenshots, created through the real API.
import sharp from "sharp";
import type { TestApi, TestUser } from "./api.ts";

/** A colourful PNG (gradient, halftone-ish circles) so screens look like a comics site. */
export async function artPng(width: number, height: number, hue: number): Promise<Buffer> {
  const circles = Array.from({ length: 6 }, (_, i) => {
    const r = Math.round(Math.min(width, height) * (0.12 + i * 0.05));
    return `<circle cx="${Math.round(width * (0.15 + 0.15 * i))}" cy="${Math.round(height * (0.3 + ((i * 37) % 50) / 100))}" r="${r}" fill="hsl(${(hue + i * 25) % 360} 80% ${55 + (i % 3) * 8}%)" fill-opacity="0.55"/>`;
  }).join("");
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="hsl(${hue} 70% 45%)"/><stop offset="1" stop-color="hsl(${(hue + 60) % 360} 75% 28%)"/></linearGradient></defs>
    <rect width="100%" height="100%" fill="url(#g)"/>${circles}</svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

export async function upload(api: TestApi, user: TestUser, width: number, height: number, hue: number): Promise<number> {
  const res = await api.request
    .post("/images")
    .set(user.auth)
    .attach("file", await artPng(width, height, hue), "art.png");
  if (res.status !== 201) throw new Error(`upload failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.id as number;
}

function ok<T>(res: { status: number; body: unknown }, expected: number, what: string): T {
  if (res.status !== expected) throw new Error(`${what} failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as T;
}

export interface SeededHub {
  id: number;
  name: string;
}

export async function createHub(
  api: TestApi,
  user: TestUser,
  body: { name: string; description?: string; profileImageId?: number; profileBannerId?: number },
) {
  return ok<SeededHub>(
    await api.request
      .post("/hubs")
      .set(user.auth)
      .send({ description: "", ...body }),
    201,
    "create hub",
  );
}

export async function createPost(
  api: TestApi,
  user: TestUser,
  hubId: number,
  body: { title: string; content: string; description?: string },
) {
  return ok<{ id: number; hubName: string; title: string }>(
    await api.request
      .post("/hub-posts")
      .set(user.auth)
      .send({ description: "", ...body, hubId }),
    201,
    "create post",
  );
}

export async function joinHub(api: TestApi, user: TestUser, hubId: number) {
  return ok(await api.request.post(`/user/${user.id}/member-hubs/${hubId}`).set(user.auth), 200, "join hub");
}

export async function likePost(api: TestApi, user: TestUser, hubName: string, postId: number) {
  return ok(await api.request.post(`/hubs/${encodeURIComponent(hubName)}/${postId}/like`).set(user.auth), 200, "like post");
}

export async function createSeriesWithChapter(
  api: TestApi,
  user: TestUser,
  name: string,
  chapterTitle: string,
  hue: number,
  images = true,
) {
  const [logo, banner, page] = images
    ? await Promise.all([upload(api, user, 200, 200, hue + 20), upload(api, user, 960, 400, hue), upload(api, user, 600, 900, hue + 40)])
    : [null, null, await upload(api, user, 60, 90, hue)];
  const series = ok<{ id: number; name: string }>(
    await api.request
      .post("/series")
      .set(user.auth)
      .send({ name, description: `${name}: a serial comic.`, profileImageId: logo, profileBannerId: banner }),
    201,
    "create series",
  );
  ok(
    await api.request
      .post(`/series/${encodeURIComponent(name)}/chapters`)
      .set(user.auth)
      .send({ title: chapterTitle, pages: [page] }),
    201,
    "publish chapter",
  );
  return series;
}

const POST_CONTENT = `Welcome to the hub! Here is what we are working on this month.

## This month's contest
Draw your **favourite side character** in your own style. Share a link to your entry in the comments.

- Any medium: ink, digital, watercolour
- Credit the original artist for fan-art
- Deadline: the last day of the month

> "Every comic starts with a single panel."

Read the [contest rules](https://example.com/rules) or \`ask a moderator\`.`;

/**
 * A small community: an artist with three hubs (logos and banners), posts, and a series with a
 * chapter; a reader who joined one hub and liked a post.
 */
export async function seedCommunity(api: TestApi) {
  const artist = await api.register(`mika_${process.pid}`);
  const reader = await api.register(`reader_${process.pid}`);
  const [logo1, banner1, logo2] = await Promise.all([
    upload(api, artist, 200, 200, 10),
    upload(api, artist, 1200, 400, 200),
    upload(api, artist, 200, 200, 280),
  ]);
  const manga = await createHub(api, artist, {
    name: "Manga Lovers",
    description: "Everything manga: recommendations, fan-art and weekly chapter talk.",
    profileImageId: logo1,
    profileBannerId: banner1,
  });
  const inkers = await createHub(api, artist, {
    name: "Ink & Brush",
    description: "Traditional inking techniques, brushes, nibs and paper.",
    profileImageId: logo2,
  });
  const webcomics = await createHub(api, artist, {
    name: "Webcomic Workshop",
    description: "Feedback circles for people making webcomics.",
  });
  const post = await createPost(api, artist, manga.id, {
    title: "Monthly art contest: side characters",
    description: "Draw your favourite side character and share it here.",
    content: POST_CONTENT,
  });
  await createPost(api, artist, manga.id, {
    title: "What are you reading this week?",
    description: "Tell us which chapters you could not put down.",
    content: "Share your picks for this week, one series per comment.",
  });
  await createPost(api, artist, inkers.id, {
    title: "Brush pen comparison",
    description: "Five brush pens tested on bristol board.",
    content: "I tested five brush pens on the same paper. Results inside.",
  });
  await joinHub(api, reader, manga.id);
  await likePost(api, reader, manga.name, post.id);
  await createSeriesWithChapter(api, artist, "Moonlit Ronin", "The Night Market", 230);
  await createSeriesWithChapter(api, artist, "Paper Dragons", "Origami Skies", 20);
  return { artist, reader, hubs: { manga, inkers, webcomics }, post };
}

/**
 * A comic page: panels with black borders on white paper, halftone-ish shapes and a speech
 * balloon naming the page, so the reader's screenshots look like a comic.
 */
export async function comicPagePng(
  width: number,
  height: number,
  hue: number,
  label: string,
  format: "png" | "jpeg" = "jpeg",
): Promise<Buffer> {
  const m = Math.round(width * 0.05);
  const g = Math.round(width * 0.025);
  const rows = [[0.5, 0.5], [1], [0.35, 0.65]];
  const rowH = (height - 2 * m - g * (rows.length - 1)) / rows.length;
  let panels = "";
  rows.forEach((cols, r) => {
    let x = m;
    const y = m + r * (rowH + g);
    cols.forEach((share, c) => {
      const w = (width - 2 * m - g * (cols.length - 1)) * share;
      const h2 = (hue + r * 40 + c * 25) % 360;
      panels += `<rect x="${x}" y="${y}" width="${w}" height="${rowH}" fill="hsl(${h2} 60% 62%)"/>`;
      panels += `<circle cx="${x + w * 0.6}" cy="${y + rowH * 0.55}" r="${Math.min(w, rowH) * 0.3}" fill="hsl(${(h2 + 180) % 360} 70% 45%)" fill-opacity="0.7"/>`;
      panels += `<rect x="${x + w * 0.1}" y="${y + rowH * 0.6}" width="${w * 0.35}" height="${rowH * 0.3}" fill="hsl(${h2} 50% 30%)" fill-opacity="0.6"/>`;
      panels += `<rect x="${x}" y="${y}" width="${w}" height="${rowH}" fill="none" stroke="#111" stroke-width="${Math.max(3, width / 160)}"/>`;
      x += w + g;
    });
  });
  const fs = Math.round(width * 0.05);
  const bubble = `<ellipse cx="${width * 0.3}" cy="${m + rowH * 0.3}" rx="${width * 0.17}" ry="${fs * 1.3}" fill="#fff" stroke="#111" stroke-width="3"/>
    <text x="${width * 0.3}" y="${m + rowH * 0.3 + fs * 0.35}" font-family="DejaVu Sans" font-weight="bold" font-size="${fs}" text-anchor="middle" fill="#111">${label}</text>`;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="#fbfaf7"/>${panels}${bubble}</svg>`;
  const image = sharp(Buffer.from(svg));
  return format === "png" ? image.png().toBuffer() : image.jpeg({ quality: 82 }).toBuffer();
}

export async function uploadBytes(api: TestApi, user: TestUser, bytes: Buffer, fileName: string): Promise<number> {
  const res = await api.request.post("/images").set(user.auth).attach("file", bytes, fileName);
  if (res.status !== 201) throw new Error(`upload failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.id as number;
}

/** Publishes a chapter of `pageCount` comic pages (800 × 1200) and answers its number. */
export async function publishComicChapter(
  api: TestApi,
  user: TestUser,
  seriesName: string,
  body: { title: string; description?: string; content?: string },
  pageCount: number,
  hue: number,
) {
  const pages: number[] = [];
  for (let i = 1; i <= pageCount; i++)
    pages.push(await uploadBytes(api, user, await comicPagePng(800, 1200, hue + i * 30, `Page ${i}`), `page-${i}.jpg`));
  const res = await api.request
    .post(`/series/${encodeURIComponent(seriesName)}/chapters`)
    .set(user.auth)
    .send({ ...body, pages });
  return ok<{ number: number; id: number; pages: { imageId: number }[] }>(res, 201, "publish chapter");
}

/**
 * Comics to read: "Moonlit Ronin" (banner, logo, three chapters of several pages, notes on the
 * last), "Paper Dragons" (one chapter) and "Blank Pages" (no images, no chapters). The reader
 * follows the first series and liked its first chapter.
 */
export async function seedComics(api: TestApi) {
  const artist = await api.register(`kana_${process.pid}`);
  const reader = await api.register(`fan_${process.pid}`);
  const [logo, banner] = await Promise.all([upload(api, artist, 240, 240, 250), upload(api, artist, 1500, 500, 220)]);
  const ronin = ok<{ id: number; name: string }>(
    await api.request.post("/series").set(artist.auth).send({
      name: "Moonlit Ronin",
      description: "A wandering swordswoman, a city that never sleeps, and a debt written in moonlight.",
      profileImageId: logo,
      profileBannerId: banner,
    }),
    201,
    "create series",
  );
  const ch1 = await publishComicChapter(
    api,
    artist,
    ronin.name,
    { title: "The Night Market", description: "Aki arrives in the city with one coin and one sword." },
    4,
    200,
  );
  const ch2 = await publishComicChapter(
    api,
    artist,
    ronin.name,
    { title: "Lanterns", description: "The debt collector finds her first." },
    3,
    260,
  );
  const ch3 = await publishComicChapter(
    api,
    artist,
    ronin.name,
    {
      title: "Moon Over the Bridge",
      description: "A duel at midnight.",
      content:
        "Thanks for reading! **Chapter 4** is coming next month.\n\n- Inks: brush pen\n- Colours: digital\n\nFollow the [hub](/hubs) for sketches.",
    },
    3,
    320,
  );
  const dragons = await createSeriesWithChapter(api, artist, "Paper Dragons", "Origami Skies", 20);
  const blank = ok<{ id: number; name: string }>(
    await api.request.post("/series").set(artist.auth).send({ name: "Blank Pages" }),
    201,
    "create series",
  );
  ok(await api.request.post(`/user/${reader.id}/followed-series/${ronin.id}`).set(reader.auth), 200, "follow");
  ok(await api.request.post(`/series/${encodeURIComponent(ronin.name)}/1/like`).set(reader.auth), 200, "like chapter");
  return { artist, reader, ronin, dragons, blank, chapters: [ch1, ch2, ch3], logo, banner };
}
