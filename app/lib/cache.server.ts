/**
 * A few seconds of in-process memory for public reads that look the same to every viewer (top hubs,
 * top series). Never used for anything that depends on who is asking. A failed load is not kept.
 */
const entries = new Map<string, { expires: number; value: Promise<unknown> }>();
const MAX_ENTRIES = 500;

export function cached<T>(key: string, ttlMs: number, load: () => Promise<T>): Promise<T> {
  const now = Date.now();
  const hit = entries.get(key);
  if (hit && hit.expires > now) return hit.value as Promise<T>;
  if (entries.size >= MAX_ENTRIES) {
    for (const [k, e] of entries) if (e.expires <= now) entries.delete(k);
    if (entries.size >= MAX_ENTRIES) entries.clear();
  }
  const value = load();
  entries.set(key, { expires: now + ttlMs, value });
  value.catch(() => {
    if (entries.get(key)?.value === value) entries.delete(key);
  });
  return value;
}

/** Tests that change public data and read it back at once. */
export function clearCache(): void {
  entries.clear();
}
