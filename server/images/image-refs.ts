/** An image field of a write (logo, banner, avatar, cover, page) and the image it names; see own-images.ts. */
export interface ImageRef {
  field: string;
  label: string;
  id: number | null | undefined;
}

/**
 * Ids of this API's images embedded in markdown: every `/images/{id}` path (the web app and the API
 * both write image URLs that way; `?w=` and an origin may come around it). A plain scan, no regex.
 */
export function embeddedImageIds(markdown: string): number[] {
  const ids = new Set<number>();
  const marker = "/images/";
  for (let at = markdown.indexOf(marker); at !== -1; at = markdown.indexOf(marker, at + 1)) {
    let end = at + marker.length;
    while (end < markdown.length && end - at - marker.length < 10 && markdown[end]! >= "0" && markdown[end]! <= "9") end++;
    const digits = markdown.slice(at + marker.length, end);
    const next = markdown[end];
    // `/images/12` followed by a path character would be another URL (`/images/12/x`).
    if (digits.length > 0 && digits[0] !== "0" && (next === undefined || !/[0-9A-Za-z/]/.test(next))) ids.add(Number(digits));
  }
  return [...ids];
}
