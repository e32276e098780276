import type { Random } from "../random.ts";

/** The colours of one drawing. `mono` palettes are greys, for manga pages with screentone. */
export interface Palette {
  name: string;
  skyTop: string;
  skyBottom: string;
  sun: string;
  cloud: string;
  /** Landscape layers from the horizon to the foreground. */
  far: string;
  mid: string;
  near: string;
  accent: string;
  accent2: string;
  paper: string;
  ink: string;
  /** Night palettes get a moon and stars instead of a sun and clouds. */
  night: boolean;
  mono: boolean;
}

const colour = (
  name: string,
  [skyTop, skyBottom, sun, cloud]: readonly [string, string, string, string],
  [far, mid, near]: readonly [string, string, string],
  [accent, accent2]: readonly [string, string],
  night = false,
): Palette => ({
  name,
  skyTop,
  skyBottom,
  sun,
  cloud,
  far,
  mid,
  near,
  accent,
  accent2,
  paper: "#fdfaf3",
  ink: "#1d1b22",
  night,
  mono: false,
});

export const COLOUR_PALETTES: readonly Palette[] = [
  colour("dawn", ["#f7a072", "#ffe3b3", "#fff4d6", "#fff8ec"], ["#b58db6", "#8a6fa3", "#5c4d7d"], ["#f25f5c", "#ffd166"]),
  colour("meadow", ["#74b9e8", "#e3f4ff", "#fff6c2", "#ffffff"], ["#9cc5a1", "#5e9e6e", "#2f6b4f"], ["#ef476f", "#ffd166"]),
  colour("harbour", ["#4f86c6", "#c7e3f0", "#fff1c1", "#f4fbff"], ["#7d9fb8", "#3f6e8c", "#1f4560"], ["#ff7f51", "#f9c74f"]),
  colour("sunset city", ["#3d2c6b", "#ff8c69", "#ffd27f", "#ffb8a0"], ["#7a4e86", "#4c3366", "#2a1d40"], ["#ffd166", "#06d6a0"]),
  colour("autumn", ["#f2a65a", "#fbe3b9", "#fff2d1", "#fff8ea"], ["#c8785a", "#9c4f46", "#5b3a3a"], ["#2a9d8f", "#e9c46a"]),
  colour("mint", ["#8fd3c8", "#f1fff6", "#fffbe0", "#ffffff"], ["#a8d5ba", "#6fb39a", "#3c7a6a"], ["#f28482", "#5d5fef"]),
  colour("night market", ["#0f1b3d", "#35507a", "#fdf3c4", "#4c6590"], ["#2a3d66", "#1b2a4a", "#0d1630"], ["#ff5d8f", "#ffd23f"], true),
  colour("deep forest", ["#10263a", "#3a6b6b", "#f4f1c1", "#52807c"], ["#245454", "#173d3d", "#0b2424"], ["#f4a259", "#e76f51"], true),
  colour("candy", ["#ffafcc", "#fff0f6", "#fffbd1", "#ffffff"], ["#cdb4db", "#a2d2ff", "#7b8cde"], ["#ff5d8f", "#2ec4b6"]),
  colour("desert", ["#e9a15b", "#fde4b5", "#fff7df", "#fff3e0"], ["#d9a066", "#b86b4b", "#7a3e2e"], ["#2b9eb3", "#44af69"]),
];

export const MONO_PALETTES: readonly Palette[] = [
  {
    name: "manga",
    skyTop: "#cfcfcf",
    skyBottom: "#f5f5f5",
    sun: "#ffffff",
    cloud: "#ffffff",
    far: "#b8b8b8",
    mid: "#8c8c8c",
    near: "#4d4d4d",
    accent: "#2b2b2b",
    accent2: "#9a9a9a",
    paper: "#fbfbf8",
    ink: "#161616",
    night: false,
    mono: true,
  },
  {
    name: "manga night",
    skyTop: "#3a3a3a",
    skyBottom: "#8a8a8a",
    sun: "#f4f4f4",
    cloud: "#6a6a6a",
    far: "#5e5e5e",
    mid: "#3f3f3f",
    near: "#232323",
    accent: "#e6e6e6",
    accent2: "#bdbdbd",
    paper: "#fbfbf8",
    ink: "#111111",
    night: true,
    mono: true,
  },
];

export const pickPalette = (rnd: Random, mono = false) => rnd.pick(mono ? MONO_PALETTES : COLOUR_PALETTES);

const clamp = (v: number) => Math.max(0, Math.min(255, Math.round(v)));

function parse(hex: string): [number, number, number] {
  const h = hex.replace("#", "");
  return [parseInt(h.slice(0, 2), 16), parseInt(h.slice(2, 4), 16), parseInt(h.slice(4, 6), 16)];
}

const hex = (rgb: readonly number[]) => `#${rgb.map((v) => clamp(v).toString(16).padStart(2, "0")).join("")}`;

/** `a` blended toward `b` by t (0..1). */
export function mix(a: string, b: string, t: number): string {
  const [ra, ga, ba] = parse(a);
  const [rb, gb, bb] = parse(b);
  return hex([ra + (rb - ra) * t, ga + (gb - ga) * t, ba + (bb - ba) * t]);
}

export const lighten = (c: string, t: number) => mix(c, "#ffffff", t);
export const darken = (c: string, t: number) => mix(c, "#000000", t);

/** Relative brightness 0..1, to choose black or white text over a colour. */
export function luminance(c: string): number {
  const [r, g, b] = parse(c);
  return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
}

export const SKIN_TONES = ["#fde0c5", "#f6cfa8", "#eab88f", "#d39a6a", "#b07a52", "#8a5a3b", "#5e3d2a"] as const;
export const HAIR_COLOURS = [
  "#2b2220",
  "#4a2f23",
  "#7b4a2a",
  "#c98b4b",
  "#e8c27a",
  "#b23a48",
  "#3a6ea5",
  "#6b4fa0",
  "#2f8f83",
  "#e27396",
  "#d9d9d9",
] as const;
export const OUTFIT_COLOURS = [
  "#e63946",
  "#457b9d",
  "#2a9d8f",
  "#f4a261",
  "#6d597a",
  "#ffb703",
  "#3d405b",
  "#81b29a",
  "#ef476f",
  "#118ab2",
  "#8d6a9f",
  "#f28482",
] as const;

/**
 * Manga screentone on black-and-white pages. A tone is painted in a key colour, magenta with the
 * tone's density in the blue channel; after rasterising, art/screentone.ts turns every pixel's
 * magenta share into halftone dots. Any blend with greys (anti-aliased edges, opacity) keeps both
 * the share and the density recoverable, so edges stay clean.
 */
export const tone = (density: number) => hex([255, 0, density * 255]);
