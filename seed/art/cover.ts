import { randomFor } from "../random.ts";
import { character } from "./character.ts";
import { displayText, fitText, LETTERING_FONT, textWidth } from "./lettering.ts";
import { darken, lighten, luminance } from "./palette.ts";
import { scene } from "./scenery.ts";
import type { SeriesStyle } from "./style.ts";
import { dotField, esc, n, SvgDoc } from "./svg.ts";

export const COVER_WIDTH = 900;
export const COVER_HEIGHT = 1350;

export interface CoverSpec {
  style: SeriesStyle;
  chapter: number;
  chapterTitle: string;
  artist: string;
}

/** A chapter cover: a full-bleed scene, the cast large, the series title, a chapter ribbon and the artist. */
export function chapterCover(spec: CoverSpec): string {
  const { style } = spec;
  const rnd = randomFor("cover", style.key, spec.chapter);
  const W = COVER_WIDTH;
  const H = COVER_HEIGHT;
  const doc = new SvgDoc(W, H);
  const pal = rnd.chance(0.7) ? style.colour : rnd.pick(style.palettes.filter((p) => !p.mono).concat(style.colour));
  const ink = pal.ink;
  const body: string[] = [];

  const setting = rnd.pick(style.settings.filter((s) => s !== "interior").concat("hills"));
  body.push(scene(doc, rnd, pal, setting, W, H).svg);
  // Halftone over the lower half and a vignette, the printed-cover look.
  body.push(dotField({ x: 0, y: H * 0.55, w: W, h: H * 0.45 }, 14, 2.8, darken(pal.near, 0.4), 0.35));
  body.push(
    `<rect width="${W}" height="${H}" fill="${doc.radial(
      [
        [0.55, "#000000", 0],
        [1, "#000000", 0.45],
      ],
      0.5,
      0.55,
      0.75,
    )}"/>`,
  );

  // The cast: the lead large in front, a second member behind to one side.
  const lead = style.cast[(spec.chapter - 1) % style.cast.length]!;
  const second = style.cast[spec.chapter % style.cast.length]!;
  const leadOnLeft = rnd.chance(0.5);
  if (style.cast.length > 1) {
    body.push(
      character(rnd, second, {
        x: leadOnLeft ? W * 0.74 : W * 0.26,
        y: H * 0.6,
        scale: 2.3,
        facing: leadOnLeft ? -1 : 1,
        expression: rnd.pick(["calm", "determined", "happy"] as const),
        pose: "bust",
        ink,
      }),
    );
  }
  body.push(
    character(rnd, lead, {
      x: leadOnLeft ? W * 0.4 : W * 0.6,
      y: H * 0.72,
      scale: 3.4,
      facing: leadOnLeft ? 1 : -1,
      expression: rnd.pick(["determined", "happy", "calm", "surprised"] as const),
      pose: "bust",
      ink,
    }),
  );

  // The series title across the top.
  const title = fitText(style.title.toUpperCase(), W - 120, 3, 112, 56);
  const titleFill = rnd.pick(["#ffffff", pal.sun, lighten(pal.accent2, 0.2)]);
  body.push(displayText(title.lines, W / 2, 52, title.size, titleFill, ink));

  // The chapter ribbon under the title.
  const ribbonY = 60 + title.lines.length * title.size * 1.05 + 24;
  const label = `CHAPTER ${spec.chapter}`;
  const labelW = textWidth(label, 34, "narrow") + 36 * 2 + 6 * label.length;
  body.push(
    `<g transform="rotate(-3 ${W / 2} ${n(ribbonY)})">` +
      `<rect x="${n(W / 2 - labelW / 2)}" y="${n(ribbonY)}" width="${n(labelW)}" height="56" fill="${pal.accent}" stroke="${ink}" stroke-width="5"/>` +
      `<text x="${W / 2}" y="${n(ribbonY + 40)}" text-anchor="middle" font-size="34" ${LETTERING_FONT} letter-spacing="6" fill="${luminance(pal.accent) > 0.6 ? ink : "#ffffff"}">${esc(label)}</text>` +
      `</g>`,
  );
  const sub = fitText(spec.chapterTitle, W - 200, 2, 40, 24, "regular");
  body.push(
    `<text text-anchor="middle" font-size="${sub.size}" font-family="DejaVu Serif" font-style="italic" font-weight="bold" fill="#ffffff" stroke="${ink}" stroke-width="${n(sub.size * 0.18)}" paint-order="stroke" stroke-linejoin="round">` +
      sub.lines.map((l, i) => `<tspan x="${W / 2}" y="${n(ribbonY + 110 + i * sub.size * 1.2)}">${esc(l)}</tspan>`).join("") +
      `</text>`,
  );

  // The artist's credit and a thin printed frame.
  const credit = `by @${spec.artist}`;
  const creditW = textWidth(credit, 28, "narrow") + 40;
  body.push(
    `<rect x="40" y="${H - 100}" width="${n(creditW)}" height="50" rx="6" fill="${ink}" fill-opacity="0.85"/>`,
    `<text x="60" y="${H - 66}" font-size="28" ${LETTERING_FONT} fill="#ffffff">${esc(credit)}</text>`,
    `<rect x="16" y="16" width="${W - 32}" height="${H - 32}" fill="none" stroke="#ffffff" stroke-opacity="0.85" stroke-width="4"/>`,
  );
  return doc.render(body.join(""));
}
