import { randomFor } from "../random.ts";
import { character, randomLook } from "./character.ts";
import { darken, lighten, pickPalette } from "./palette.ts";
import { dotField, n, stripeField, SvgDoc } from "./svg.ts";

export const AVATAR_SIZE = 400;

/** A member's profile picture: their character, head and shoulders, on a patterned background. */
export function avatar(key: string): string {
  const rnd = randomFor("avatar", key);
  const S = AVATAR_SIZE;
  const doc = new SvgDoc(S, S);
  const pal = pickPalette(rnd);
  const bg = rnd.pick([pal.accent, pal.accent2, pal.far, pal.skyTop]);
  const area = { x: 0, y: 0, w: S, h: S };
  const pattern = rnd.chance(0.5) ? dotField(area, 20, 3.6, darken(bg, 0.25), 0.6) : stripeField(area, 28, 10, lighten(bg, 0.25), 0.7);
  const look = randomLook(rnd);
  const body = [
    `<rect width="${S}" height="${S}" fill="${doc.radial(
      [
        [0, lighten(bg, 0.35)],
        [1, bg],
      ],
      0.5,
      0.4,
      0.75,
    )}"/>`,
    pattern,
    `<circle cx="${S / 2}" cy="${n(S * 0.47)}" r="${n(S * 0.36)}" fill="#ffffff" fill-opacity="0.35"/>`,
    character(rnd, look, {
      x: S / 2,
      y: S * 0.47,
      scale: 1.85,
      facing: rnd.chance(0.5) ? 1 : -1,
      expression: rnd.pick(["happy", "calm", "determined"] as const),
      pose: "bust",
      ink: pal.ink,
    }),
  ];
  return doc.render(body.join(""));
}
