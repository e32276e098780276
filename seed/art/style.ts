import { randomFor } from "../random.ts";
import { randomLook, type Look } from "./character.ts";
import { COLOUR_PALETTES, MONO_PALETTES, type Palette } from "./palette.ts";
import type { SceneKind } from "./scenery.ts";

/**
 * The look of one series, fixed by its key: colour or black-and-white manga, a couple of
 * palettes, a recurring cast and the places it tends to happen in. Every page, cover, logo and
 * banner of the series draws from it, so the series looks like one work.
 */
export interface SeriesStyle {
  key: string;
  title: string;
  mono: boolean;
  palettes: Palette[];
  /** Covers, logos and banners are in colour even for a black-and-white series. */
  colour: Palette;
  cast: Look[];
  settings: SceneKind[];
}

const SETTINGS: readonly SceneKind[] = ["hills", "city", "sea", "interior"];

export function seriesStyle(key: string, title: string, mono: boolean): SeriesStyle {
  const rnd = randomFor("style", key);
  const colours = rnd.sample(COLOUR_PALETTES, 2);
  const palettes = mono ? [...MONO_PALETTES] : colours;
  const cast = Array.from({ length: rnd.int(2, 3) }, () => randomLook(rnd));
  return { key, title, mono, palettes, colour: colours[0]!, cast, settings: rnd.sample(SETTINGS, 2) };
}
