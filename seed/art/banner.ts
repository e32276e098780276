import { randomFor, type Random } from "../random.ts";
import { character, groundShadow, randomLook, type Look } from "./character.ts";
import { darken, lighten, type Palette } from "./palette.ts";
import { scene, type SceneKind } from "./scenery.ts";
import { dotField, n, stripeField, SvgDoc } from "./svg.ts";

export const BANNER_WIDTH = 1500;
export const BANNER_HEIGHT = 500;

export type BannerKind = "landscape" | "collage" | "pop";

export interface BannerSpec {
  key: string;
  palette: Palette;
  /** Characters to stand in the scene (a series' cast); none for hubs and members. */
  cast?: Look[];
  settings?: SceneKind[];
  kind?: BannerKind;
}

function landscape(doc: SvgDoc, rnd: Random, spec: BannerSpec): string {
  const W = BANNER_WIDTH;
  const H = BANNER_HEIGHT;
  const setting = rnd.pick((spec.settings ?? ["hills", "city", "sea"]).filter((s) => s !== "interior").concat("hills"));
  const bg = scene(doc, rnd, spec.palette, setting, W, H);
  const parts = [bg.svg];
  // The cast stands in a row on the right, where a page header's title will not cover them.
  (spec.cast ?? []).forEach((look, i, all) => {
    const scale = 0.62;
    const x = W * 0.62 + i * 150 - (all.length - 1) * 20;
    const y = Math.min(bg.groundY, H * 0.92) - 270 * scale;
    parts.push(groundShadow(x, y, scale));
    parts.push(
      character(rnd, look, {
        x,
        y,
        scale,
        facing: i % 2 === 0 ? 1 : -1,
        expression: rnd.pick(["happy", "calm", "determined"] as const),
        pose: rnd.pick(["full", "wave", "point"] as const),
        ink: spec.palette.ink,
      }),
    );
  });
  // A few birds in the sky.
  for (let i = 0, count = rnd.int(0, 5); i < count; i++) {
    const x = rnd.range(0.1, 0.9) * W;
    const y = rnd.range(0.1, 0.35) * H;
    const s = rnd.range(8, 16);
    parts.push(
      `<path d="M ${n(x - s)} ${n(y)} q ${n(s / 2)} ${n(-s / 2)} ${n(s)} 0 q ${n(s / 2)} ${n(-s / 2)} ${n(s)} 0" fill="none" stroke="${spec.palette.ink}" stroke-width="2.5" stroke-linecap="round"/>`,
    );
  }
  return parts.join("");
}

/** Tilted mini comic panels scattered over a halftone field. */
function collage(doc: SvgDoc, rnd: Random, spec: BannerSpec): string {
  const W = BANNER_WIDTH;
  const H = BANNER_HEIGHT;
  const pal = spec.palette;
  const parts = [
    `<rect width="${W}" height="${H}" fill="${doc.linear(
      [
        [0, lighten(pal.accent2, 0.35)],
        [1, lighten(pal.accent, 0.2)],
      ],
      20,
    )}"/>`,
    dotField({ x: 0, y: 0, w: W, h: H }, 18, 3.2, darken(pal.accent, 0.3), 0.35),
  ];
  const kinds: SceneKind[] = ["hills", "city", "sea", "interior", "sky"];
  let x = rnd.range(-60, 0);
  while (x < W) {
    const w = rnd.range(260, 380);
    const h = rnd.range(260, 360);
    const y = rnd.range(30, H - h - 10);
    const angle = rnd.range(-7, 7);
    const clip = doc.clip(`<rect width="${n(w)}" height="${n(h)}"/>`);
    const inner = scene(
      doc,
      rnd,
      rnd.chance(0.6) ? pal : { ...pal, night: !pal.night, skyTop: darken(pal.skyTop, 0.5) },
      rnd.pick(kinds),
      w,
      h,
    );
    parts.push(
      `<g transform="translate(${n(x)},${n(y)}) rotate(${n(angle)} ${n(w / 2)} ${n(h / 2)})">` +
        `<rect x="-12" y="-12" width="${n(w + 24)}" height="${n(h + 24)}" fill="#ffffff" stroke="${pal.ink}" stroke-width="3"/>` +
        `<g clip-path="${clip}">${inner.svg}</g>` +
        `<rect width="${n(w)}" height="${n(h)}" fill="none" stroke="${pal.ink}" stroke-width="5"/>` +
        `</g>`,
    );
    x += w + rnd.range(10, 60);
  }
  return parts.join("");
}

/** Pop art: diagonal stripes, a sunburst and stars. */
function pop(doc: SvgDoc, rnd: Random, spec: BannerSpec): string {
  const W = BANNER_WIDTH;
  const H = BANNER_HEIGHT;
  const pal = spec.palette;
  const cx = rnd.range(0.25, 0.75) * W;
  const cy = rnd.range(0.4, 0.6) * H; // the disc (radius 0.34 H) stays inside the frame
  const parts = [`<rect width="${W}" height="${H}" fill="${pal.accent}"/>`];
  const rays = 28;
  for (let i = 0; i < rays; i += 2) {
    const a0 = (i / rays) * Math.PI * 2;
    const a1 = ((i + 1) / rays) * Math.PI * 2;
    parts.push(
      `<polygon points="${n(cx)},${n(cy)} ${n(cx + Math.cos(a0) * W)},${n(cy + Math.sin(a0) * W)} ${n(cx + Math.cos(a1) * W)},${n(cy + Math.sin(a1) * W)}" fill="${lighten(pal.accent, 0.2)}"/>`,
    );
  }
  parts.push(dotField({ x: 0, y: 0, w: W, h: H }, 20, 3.6, darken(pal.accent, 0.35), 0.4));
  // A round window with stripes and a character looking out of it.
  const disc = rnd.pick([pal.accent2, pal.skyTop, pal.far, lighten(pal.mid, 0.3)]);
  const r = H * 0.34;
  const clip = doc.clip(`<circle cx="${n(cx)}" cy="${n(cy)}" r="${n(r)}"/>`);
  const look = spec.cast?.[0] ?? randomLook(rnd);
  parts.push(
    `<circle cx="${n(cx)}" cy="${n(cy)}" r="${n(r)}" fill="${disc}"/>`,
    `<g clip-path="${clip}">${stripeField({ x: cx - r, y: cy - r, w: r * 2, h: r * 2 }, 26, 9, lighten(disc, 0.3))}` +
      character(rnd, look, {
        x: cx,
        y: cy + r * 0.05,
        scale: 1.05,
        facing: rnd.chance(0.5) ? 1 : -1,
        expression: rnd.pick(["happy", "determined", "surprised"] as const),
        pose: "bust",
        ink: pal.ink,
      }) +
      `</g>`,
    `<circle cx="${n(cx)}" cy="${n(cy)}" r="${n(r)}" fill="none" stroke="${pal.ink}" stroke-width="8"/>`,
  );
  for (let i = 0; i < 9; i++) {
    const x = rnd.range(0.03, 0.97) * W;
    const y = rnd.range(0.08, 0.92) * H;
    const s = rnd.range(14, 34);
    if (Math.hypot(x - cx, y - cy) < r + s) continue;
    parts.push(
      `<polygon points="${n(x)},${n(y - s)} ${n(x + s * 0.28)},${n(y - s * 0.28)} ${n(x + s)},${n(y)} ${n(x + s * 0.28)},${n(y + s * 0.28)} ${n(x)},${n(y + s)} ${n(x - s * 0.28)},${n(y + s * 0.28)} ${n(x - s)},${n(y)} ${n(x - s * 0.28)},${n(y - s * 0.28)}" fill="#ffffff" stroke="${pal.ink}" stroke-width="3"/>`,
    );
  }
  return parts.join("");
}

/** A wide 1500 x 500 header image for a hub, a series or a member's profile. */
export function banner(spec: BannerSpec): string {
  const rnd = randomFor("banner", spec.key);
  const doc = new SvgDoc(BANNER_WIDTH, BANNER_HEIGHT);
  const kind = spec.kind ?? rnd.pick(["landscape", "collage", "pop"] as const);
  const body = kind === "landscape" ? landscape(doc, rnd, spec) : kind === "collage" ? collage(doc, rnd, spec) : pop(doc, rnd, spec);
  return doc.render(body);
}
