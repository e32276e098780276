/**
 * Manga screentone, applied to a rasterised black-and-white page.
 *
 * Tones are painted in a key colour (palette.ts `tone(density)`: red 255, green 0, blue =
 * density). A pixel that is a share `a` of tone over a grey `v` reads r = 255a + v(1-a),
 * g = v(1-a), b = 255ad + v(1-a); so the tone's share is (r - g) / 255, its density is
 * (b - g) / (r - g), and g is what lies under it. Each pixel becomes its grey plus its tone share
 * rendered as a 45-degree clustered-dot halftone, which keeps anti-aliased edges clean.
 * The result is a one-channel grey image.
 */

/** Distance between dot centres along the screen's axes, in px (about 55 lines per inch at 900 px wide). */
const PERIOD = 6.5;
/** How many threshold units blur over a pixel: soft, anti-aliased dot edges. */
const SOFTNESS = 2.5;
/** Below this share a pixel is plain grey (warm whites have a hint of red). */
const MIN_SHARE = 7;

const maps = new Map<string, Float32Array>();

/** 0..1 per pixel; dot centres at 1. Computed once per size. */
function thresholdMap(width: number, height: number): Float32Array {
  const key = `${width}x${height}`;
  let map = maps.get(key);
  if (!map) {
    map = new Float32Array(width * height);
    const k = (2 * Math.PI) / (PERIOD * Math.SQRT2);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        map[y * width + x] = 0.5 + 0.25 * (Math.cos((x + y) * k) + Math.cos((x - y) * k));
      }
    }
    maps.set(key, map);
  }
  return map;
}

/** RGB (3 or 4 channels) to one grey channel with the tones turned into dots. */
export function applyScreentone(pixels: Buffer, width: number, height: number, channels: number): Buffer {
  const map = thresholdMap(width, height);
  const out = Buffer.alloc(width * height);
  for (let i = 0, p = 0; i < out.length; i++, p += channels) {
    const r = pixels[p]!;
    const g = pixels[p + 1]!;
    const b = pixels[p + 2]!;
    const share = r - g;
    if (share < MIN_SHARE) {
      out[i] = (r * 77 + g * 150 + b * 29) >> 8;
      continue;
    }
    const density = Math.min(1, Math.max(0, (b - g) / share));
    const ink = Math.min(1, Math.max(0, (map[i]! - (1 - density)) * SOFTNESS + 0.5));
    out[i] = Math.round(share * (1 - ink) + g);
  }
  return out;
}
