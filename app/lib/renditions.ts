/**
 * The widths the API serves for `GET /images/{id}?w=` (server/images/image-files.ts; a request
 * snaps up to the next one). Kept here too because that module is server-only (sharp).
 */
export const RENDITION_WIDTHS = [160, 320, 480, 640, 800, 960, 1080, 1280, 1600, 1920] as const;

/**
 * A `srcset` for an image `width` pixels wide: every rendition narrower than it, then the
 * original itself (no `?w=`), so the browser never asks for more pixels than exist.
 */
export function srcSetFor(url: (id: number, width?: number) => string, id: number, width: number, minWidth = 320): string {
  const candidates = RENDITION_WIDTHS.filter((w) => w >= minWidth && w < width).map((w) => `${url(id, w)} ${w}w`);
  candidates.push(`${url(id)} ${width}w`);
  return candidates.join(", ");
}
