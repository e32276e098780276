/** Dates are stored as Unix milliseconds on both engines (docs/decisions/014-data-layer.md). */
export const toIso = (ms: number) => new Date(ms).toISOString();
export const nowMs = () => Date.now();
