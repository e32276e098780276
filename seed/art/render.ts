import sharp from "sharp";
import type { ImageFormat } from "../../server/images/image-formats.ts";
import { applyScreentone } from "./screentone.ts";

export interface RenderedImage {
  bytes: Buffer;
  format: ImageFormat;
  width: number;
  height: number;
}

/** Pictures (pages, covers, banners, avatars) as JPEG or WebP; logos as PNG for their transparent corners. */
export type Encoding = "jpeg" | "webp" | "png";

export interface RenderOptions {
  /** A black-and-white manga page: key-coloured tones become halftone dots, the output is grey. */
  screentone?: boolean;
}

function encode(image: sharp.Sharp, encoding: Encoding): sharp.Sharp {
  switch (encoding) {
    case "jpeg":
      return image.jpeg({ quality: 82, progressive: true });
    case "webp":
      return image.webp({ quality: 80, effort: 2 });
    case "png":
      return image.png({ compressionLevel: 9 });
  }
}

/**
 * SVG to image bytes through sharp (librsvg). JPEG and WebP at quality ~80 keep the data folder
 * small; WebP is about half the size of JPEG for flat comic art, for a little more encoding time.
 */
export async function renderSvg(svg: string, encoding: Encoding, options: RenderOptions = {}): Promise<RenderedImage> {
  let image = sharp(Buffer.from(svg));
  if (options.screentone) {
    const { data, info } = await image.flatten({ background: "#ffffff" }).raw().toBuffer({ resolveWithObject: true });
    const grey = applyScreentone(data, info.width, info.height, info.channels);
    image = sharp(grey, { raw: { width: info.width, height: info.height, channels: 1 } });
  } else if (encoding !== "png") {
    image = image.flatten({ background: "#ffffff" });
  }
  const { data, info } = await encode(image, encoding).toBuffer({ resolveWithObject: true });
  return { bytes: data, format: encoding, width: info.width, height: info.height };
}
