import { RENDITION_WIDTHS } from "../../server/rules/images.ts";

/**
 * A `srcset` for an image `width` pixels wide: every rendition narrower than it, then the
 * original itself (no `?w=`), so the browser never asks for more pixels than exist.
 */
export function srcSetFor(url: (id: number, width?: number) => string, id: number, width: number, minWidth = 320): string {
  const candidates = RENDITION_WIDTHS.filter((w) => w >= minWidth && w < width).map((w) => `${url(id, w)} ${w}w`);
  candidates.push(`${url(id)} ${width}w`);
  return candidates.join(", ");
}
