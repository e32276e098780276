/**
 * Whether an Accept header names `type` (lower case) with a quality above 0: `image/webp`, `image/webp;q=0.8`, but
 * not `image/webp;q=0`. Wildcards (`*` and `image/*`) do not count: a client that names no type gets the
 * resource's own format. A plain scan of the list, no regex: the header is the client's.
 */
export function acceptsListed(header: string | undefined, type: string): boolean {
  if (!header) return false;
  for (const item of header.split(",")) {
    const [name = "", ...params] = item.split(";");
    if (name.trim().toLowerCase() !== type) continue;
    const quality = params.map((param) => param.trim().toLowerCase()).find((param) => param.startsWith("q="));
    return quality === undefined || Number(quality.slice(2)) > 0;
  }
  return false;
}
