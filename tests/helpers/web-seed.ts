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
  const res = await api.request.post("/images").set(user.auth).attach("file", await artPng(width, height, hue), "art.png");
  if (res.status !== 201) throw new Error(`upload failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.id as number;
}

async function ok<T>(res: { status: number; body: unknown }, expected: number, what: string): Promise<T> {
  if (res.status !== expected) throw new Error(`${what} failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as T;
}

export interface SeededHub {
  id: number;
  name: string;
}

export async function createHub(api: TestApi, user: TestUser, body: { name: string; description?: string; profileImageId?: number; profileBannerId?: number }) {
  return ok<SeededHub>(await api.request.post("/hubs").set(user.auth).send({ description: "", ...body }), 201, "create hub");
}

export async function createPost(api: TestApi, user: TestUser, hubId: number, body: { title: string; content: string; description?: string }) {
  return ok<{ id: number; hubName: string; title: string }>(await api.request.post("/hub-posts").set(user.auth).send({ description: "", ...body, hubId }), 201, "create post");
}

export async function joinHub(api: TestApi, user: TestUser, hubId: number) {
  return ok(await api.request.post(`/user/${user.id}/member-hubs/${hubId}`).set(user.auth), 200, "join hub");
}

export async function likePost(api: TestApi, user: TestUser, hubName: string, postId: number) {
  return ok(await api.request.post(`/hubs/${encodeURIComponent(hubName)}/${postId}/like`).set(user.auth), 200, "like post");
}

export async function createSeriesWithChapter(api: TestApi, user: TestUser, name: string, chapterTitle: string, hue: number, images = true) {
  const [logo, banner, page] = images
    ? await Promise.all([upload(api, user, 200, 200, hue + 20), upload(api, user, 960, 400, hue), upload(api, user, 600, 900, hue + 40)])
    : [null, null, await upload(api, user, 60, 90, hue)];
  const series = await ok<{ id: number; name: string }>(
    await api.request.post("/series").set(user.auth).send({ name, description: `${name}: a serial comic.`, profileImageId: logo, profileBannerId: banner }),
    201,
    "create series",
  );
  await ok(await api.request.post(`/series/${encodeURIComponent(name)}/chapters`).set(user.auth).send({ title: chapterTitle, pages: [page] }), 201, "publish chapter");
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
  const manga = await createHub(api, artist, { name: "Manga Lovers", description: "Everything manga: recommendations, fan-art and weekly chapter talk.", profileImageId: logo1, profileBannerId: banner1 });
  const inkers = await createHub(api, artist, { name: "Ink & Brush", description: "Traditional inking techniques, brushes, nibs and paper.", profileImageId: logo2 });
  const webcomics = await createHub(api, artist, { name: "Webcomic Workshop", description: "Feedback circles for people making webcomics." });
  const post = await createPost(api, artist, manga.id, { title: "Monthly art contest: side characters", description: "Draw your favourite side character and share it here.", content: POST_CONTENT });
  await createPost(api, artist, manga.id, { title: "What are you reading this week?", description: "Tell us which chapters you could not put down.", content: "Share your picks for this week, one series per comment." });
  await createPost(api, artist, inkers.id, { title: "Brush pen comparison", description: "Five brush pens tested on bristol board.", content: "I tested five brush pens on the same paper. Results inside." });
  await joinHub(api, reader, manga.id);
  await likePost(api, reader, manga.name, post.id);
  await createSeriesWithChapter(api, artist, "Moonlit Ronin", "The Night Market", 230);
  await createSeriesWithChapter(api, artist, "Paper Dragons", "Origami Skies", 20);
  return { artist, reader, hubs: { manga, inkers, webcomics }, post };
}
