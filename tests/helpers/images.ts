import sharp from "sharp";
import { expect } from "vitest";
import type { TestApi, TestUser } from "./api.ts";

export type Format = "jpeg" | "png" | "webp" | "gif";

/** A solid-colour image of the given size and format, made with sharp. */
export function imageBytes(format: Format = "png", width = 40, height = 30): Promise<Buffer> {
  const image = sharp({ create: { width, height, channels: 3, background: { r: 200, g: 80, b: 20 } } });
  return image.toFormat(format).toBuffer();
}

/** Random pixels: a PNG that does not compress, to exceed upload limits with a real image. */
export function noisePng(width: number, height: number): Promise<Buffer> {
  const raw = Buffer.alloc(width * height * 3);
  for (let i = 0; i < raw.length; i++) raw[i] = Math.floor(Math.random() * 256);
  return sharp(raw, { raw: { width, height, channels: 3 } })
    .png({ compressionLevel: 0 })
    .toBuffer();
}

/** Uploads an image as the user and answers its id. */
export async function uploadImage(api: TestApi, user: TestUser, bytes?: Buffer, fileName = "image.png"): Promise<number> {
  const res = await api.request
    .post("/images")
    .set(user.auth)
    .attach("file", bytes ?? (await imageBytes()), fileName);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id as number;
}

/** Uploads a solid PNG of the given size (a chapter page, a logo) as the user and answers its id. */
export async function uploadPng(api: TestApi, user: TestUser, width = 40, height = 60): Promise<number> {
  return uploadImage(api, user, await imageBytes("png", width, height), "page.png");
}
