import type { Random } from "../random.ts";
import { darken, lighten, mix, type Palette } from "./palette.ts";
import { n, type Point, type SvgDoc } from "./svg.ts";

export type SceneKind = "hills" | "city" | "sea" | "interior" | "sky" | "focus" | "speed";

export interface Scene {
  svg: string;
  /** Where standing figures put their feet. */
  groundY: number;
}

/** A smooth closed-bottom silhouette through the points (Catmull-Rom turned into cubic curves). */
function ridge(pts: readonly Point[], bottom: number, fill: string, extra = ""): string {
  let d = `M ${n(pts[0]!.x)} ${n(bottom)} L ${n(pts[0]!.x)} ${n(pts[0]!.y)}`;
  for (let i = 0; i < pts.length - 1; i++) {
    const p0 = pts[Math.max(0, i - 1)]!;
    const p1 = pts[i]!;
    const p2 = pts[i + 1]!;
    const p3 = pts[Math.min(pts.length - 1, i + 2)]!;
    d += ` C ${n(p1.x + (p2.x - p0.x) / 6)} ${n(p1.y + (p2.y - p0.y) / 6)} ${n(p2.x - (p3.x - p1.x) / 6)} ${n(p2.y - (p3.y - p1.y) / 6)} ${n(p2.x)} ${n(p2.y)}`;
  }
  d += ` L ${n(pts[pts.length - 1]!.x)} ${n(bottom)} Z`;
  return `<path d="${d}" fill="${fill}"${extra}/>`;
}

function hillPoints(rnd: Random, w: number, base: number, amplitude: number): Point[] {
  const count = rnd.int(3, 5);
  return Array.from({ length: count + 1 }, (_, i) => ({
    x: -20 + ((w + 40) * i) / count,
    y: base - rnd.range(0.15, 1) * amplitude,
  }));
}

function cloud(rnd: Random, x: number, y: number, size: number, colour: string): string {
  const puffs = Array.from({ length: rnd.int(3, 5) }, (_, i) => {
    const r = size * rnd.range(0.35, 0.6);
    return `<circle cx="${n(x + (i - 1.5) * size * 0.45)}" cy="${n(y - r * 0.4)}" r="${n(r)}"/>`;
  });
  return `<g fill="${colour}" opacity="0.92">${puffs.join("")}<rect x="${n(x - size * 1.1)}" y="${n(y - size * 0.2)}" width="${n(size * 2.2)}" height="${n(size * 0.35)}" rx="${n(size * 0.17)}"/></g>`;
}

/** Sky gradient with a sun and clouds by day, a moon and stars by night. */
export function sky(doc: SvgDoc, rnd: Random, pal: Palette, w: number, h: number, horizon: number): string {
  const parts = [
    `<rect x="-5" y="-5" width="${n(w + 10)}" height="${n(h + 10)}" fill="${doc.linear([
      [0, pal.skyTop],
      [1, pal.skyBottom],
    ])}"/>`,
  ];
  const unit = Math.max(w, h);
  const sx = rnd.range(0.15, 0.85) * w;
  const sy = rnd.range(0.15, 0.55) * horizon;
  const sr = unit * rnd.range(0.05, 0.09);
  if (pal.night) {
    const stars = Math.round((w * horizon) / 9000);
    for (let i = 0; i < stars; i++) {
      parts.push(
        `<circle cx="${n(rnd.range(0, w))}" cy="${n(rnd.range(0, horizon))}" r="${n(rnd.range(0.8, 2.4))}" fill="#ffffff" fill-opacity="${n(rnd.range(0.4, 0.95))}"/>`,
      );
    }
    parts.push(`<circle cx="${n(sx)}" cy="${n(sy)}" r="${n(sr * 1.8)}" fill="${pal.sun}" fill-opacity="0.12"/>`);
    parts.push(`<circle cx="${n(sx)}" cy="${n(sy)}" r="${n(sr)}" fill="${pal.sun}"/>`);
    // A crescent: the sky colour bites into the moon.
    parts.push(
      `<circle cx="${n(sx + sr * 0.45)}" cy="${n(sy - sr * 0.2)}" r="${n(sr * 0.85)}" fill="${mix(pal.skyTop, pal.skyBottom, sy / Math.max(1, h))}"/>`,
    );
  } else {
    parts.push(`<circle cx="${n(sx)}" cy="${n(sy)}" r="${n(sr * 2.2)}" fill="${pal.sun}" fill-opacity="0.25"/>`);
    parts.push(`<circle cx="${n(sx)}" cy="${n(sy)}" r="${n(sr)}" fill="${pal.sun}"/>`);
    for (let i = 0, count = rnd.int(1, 3); i < count; i++) {
      parts.push(cloud(rnd, rnd.range(0, w), rnd.range(0.15, 0.7) * horizon, unit * rnd.range(0.05, 0.1), pal.cloud));
    }
  }
  return parts.join("");
}

function trees(rnd: Random, w: number, y: number, size: number, colour: string): string {
  const parts: string[] = [];
  let x = rnd.range(-10, 40);
  while (x < w + 20) {
    const s = size * rnd.range(0.7, 1.3);
    if (rnd.chance(0.5)) {
      parts.push(`<polygon points="${n(x)},${n(y - s * 2.2)} ${n(x - s * 0.7)},${n(y)} ${n(x + s * 0.7)},${n(y)}" fill="${colour}"/>`);
    } else {
      parts.push(`<rect x="${n(x - s * 0.1)}" y="${n(y - s)}" width="${n(s * 0.2)}" height="${n(s)}" fill="${darken(colour, 0.3)}"/>`);
      parts.push(`<circle cx="${n(x)}" cy="${n(y - s * 1.3)}" r="${n(s * 0.65)}" fill="${colour}"/>`);
    }
    x += s * rnd.range(1.2, 3.5);
  }
  return parts.join("");
}

function hills(doc: SvgDoc, rnd: Random, pal: Palette, w: number, h: number): Scene {
  const horizon = h * rnd.range(0.45, 0.65);
  const parts = [sky(doc, rnd, pal, w, h, horizon)];
  parts.push(ridge(hillPoints(rnd, w, horizon + h * 0.05, h * 0.25), h + 5, pal.far));
  parts.push(ridge(hillPoints(rnd, w, horizon + h * 0.15, h * 0.18), h + 5, pal.mid));
  if (rnd.chance(0.7)) parts.push(trees(rnd, w, horizon + h * 0.2, Math.max(8, h * 0.05), darken(pal.mid, 0.25)));
  const groundY = horizon + h * 0.3;
  parts.push(
    ridge(
      hillPoints(rnd, w, groundY + h * 0.04, h * 0.08),
      h + 5,
      doc.linear([
        [0, pal.near],
        [1, darken(pal.near, 0.3)],
      ]),
    ),
  );
  return { svg: parts.join(""), groundY };
}

function buildings(rnd: Random, w: number, base: number, minH: number, maxH: number, colour: string, windows: string | null): string {
  const parts: string[] = [];
  let x = rnd.range(-30, 0);
  while (x < w + 10) {
    const bw = rnd.range(0.07, 0.16) * Math.max(w, 300);
    const bh = rnd.range(minH, maxH);
    const top = base - bh;
    parts.push(`<rect x="${n(x)}" y="${n(top)}" width="${n(bw + 1)}" height="${n(bh + 5)}" fill="${colour}"/>`);
    if (rnd.chance(0.25))
      parts.push(
        `<rect x="${n(x + bw * 0.45)}" y="${n(top - bh * 0.15)}" width="${n(Math.max(2, bw * 0.06))}" height="${n(bh * 0.15)}" fill="${colour}"/>`,
      );
    if (windows) {
      const size = Math.max(3, bw * 0.12);
      for (let wy = top + size * 1.5; wy < base - size * 2; wy += size * 2.4) {
        for (let wx = x + size; wx < x + bw - size * 1.5; wx += size * 2.2) {
          if (rnd.chance(0.45))
            parts.push(`<rect x="${n(wx)}" y="${n(wy)}" width="${n(size)}" height="${n(size * 1.3)}" fill="${windows}"/>`);
        }
      }
    }
    x += bw + rnd.range(0, 6);
  }
  return parts.join("");
}

function city(doc: SvgDoc, rnd: Random, pal: Palette, w: number, h: number): Scene {
  const groundY = h * rnd.range(0.72, 0.85);
  const parts = [sky(doc, rnd, pal, w, h, groundY)];
  const lit = pal.mono ? "#f2f2f2" : pal.night ? "#ffe49a" : lighten(pal.skyBottom, 0.3);
  parts.push(buildings(rnd, w, groundY, h * 0.3, h * 0.6, pal.far, null));
  parts.push(buildings(rnd, w, groundY, h * 0.15, h * 0.42, pal.mid, w * h < 200_000 ? null : lit));
  parts.push(`<rect x="-5" y="${n(groundY)}" width="${n(w + 10)}" height="${n(h - groundY + 5)}" fill="${pal.near}"/>`);
  parts.push(`<rect x="-5" y="${n(groundY)}" width="${n(w + 10)}" height="4" fill="${darken(pal.near, 0.35)}"/>`);
  return { svg: parts.join(""), groundY: groundY + (h - groundY) * 0.4 };
}

function sea(doc: SvgDoc, rnd: Random, pal: Palette, w: number, h: number): Scene {
  const horizon = h * rnd.range(0.45, 0.6);
  const parts = [sky(doc, rnd, pal, w, h, horizon)];
  const water = doc.linear([
    [0, lighten(pal.far, 0.15)],
    [1, darken(pal.near, 0.1)],
  ]);
  parts.push(`<rect x="-5" y="${n(horizon)}" width="${n(w + 10)}" height="${n(h - horizon + 5)}" fill="${water}"/>`);
  const waves = Math.round((w * (h - horizon)) / 5000);
  for (let i = 0; i < waves; i++) {
    const y = horizon + Math.pow(rnd.next(), 0.8) * (h - horizon);
    const len = 6 + ((y - horizon) / (h - horizon)) * 26;
    const x = rnd.range(-10, w);
    parts.push(
      `<path d="M ${n(x)} ${n(y)} q ${n(len / 2)} ${n(-len / 4)} ${n(len)} 0" fill="none" stroke="${lighten(pal.far, 0.55)}" stroke-width="2" stroke-linecap="round" stroke-opacity="0.7"/>`,
    );
  }
  if (rnd.chance(0.6)) {
    // A lighthouse on a rock at one side.
    const lx = rnd.chance(0.5) ? w * 0.12 : w * 0.85;
    const lh = h * 0.32;
    const base = horizon + h * 0.06;
    parts.push(`<ellipse cx="${n(lx)}" cy="${n(base)}" rx="${n(lh * 0.45)}" ry="${n(lh * 0.1)}" fill="${darken(pal.near, 0.2)}"/>`);
    parts.push(
      `<polygon points="${n(lx - lh * 0.09)},${n(base)} ${n(lx + lh * 0.09)},${n(base)} ${n(lx + lh * 0.06)},${n(base - lh)} ${n(lx - lh * 0.06)},${n(base - lh)}" fill="#f5f1e8"/>`,
    );
    for (let s = 0.2; s < 0.9; s += 0.3) {
      parts.push(
        `<rect x="${n(lx - lh * 0.085)}" y="${n(base - lh * (s + 0.1))}" width="${n(lh * 0.17)}" height="${n(lh * 0.1)}" fill="${pal.accent}"/>`,
      );
    }
    parts.push(
      `<rect x="${n(lx - lh * 0.07)}" y="${n(base - lh * 1.12)}" width="${n(lh * 0.14)}" height="${n(lh * 0.12)}" fill="${pal.sun}" stroke="${pal.ink}" stroke-width="2"/>`,
    );
  } else {
    // A small sailboat on the horizon.
    const bx = rnd.range(0.2, 0.8) * w;
    const s = h * 0.08;
    parts.push(
      `<path d="M ${n(bx - s)} ${n(horizon + s * 0.3)} L ${n(bx + s)} ${n(horizon + s * 0.3)} L ${n(bx + s * 0.7)} ${n(horizon + s * 0.6)} L ${n(bx - s * 0.7)} ${n(horizon + s * 0.6)} Z" fill="${pal.ink}"/>`,
    );
    parts.push(
      `<polygon points="${n(bx)},${n(horizon - s * 1.3)} ${n(bx)},${n(horizon + s * 0.2)} ${n(bx + s * 0.8)},${n(horizon + s * 0.2)}" fill="#fbf7ee"/>`,
    );
  }
  return { svg: parts.join(""), groundY: h * 0.98 };
}

function interior(doc: SvgDoc, rnd: Random, pal: Palette, w: number, h: number): Scene {
  const floorY = h * rnd.range(0.68, 0.8);
  const wall = rnd.pick([pal.cloud, lighten(pal.far, 0.5), lighten(pal.accent2, 0.6), lighten(pal.mid, 0.55)]);
  const parts = [
    `<rect x="-5" y="-5" width="${n(w + 10)}" height="${n(floorY + 5)}" fill="${doc.linear([
      [0, wall],
      [1, darken(wall, 0.12)],
    ])}"/>`,
    `<rect x="-5" y="${n(floorY)}" width="${n(w + 10)}" height="${n(h - floorY + 5)}" fill="${darken(pal.mid, 0.1)}"/>`,
    `<rect x="-5" y="${n(floorY - 6)}" width="${n(w + 10)}" height="8" fill="${darken(wall, 0.35)}"/>`,
  ];
  // A window onto the sky, or a shelf of books.
  const ww = w * rnd.range(0.22, 0.35);
  const wh = floorY * rnd.range(0.35, 0.5);
  const wx = rnd.range(0.05, 0.95 - ww / w) * w;
  const wy = floorY * 0.15;
  if (rnd.chance(0.6)) {
    parts.push(
      `<rect x="${n(wx)}" y="${n(wy)}" width="${n(ww)}" height="${n(wh)}" fill="${doc.linear([
        [0, pal.skyTop],
        [1, pal.skyBottom],
      ])}" stroke="${pal.ink}" stroke-width="5"/>`,
    );
    parts.push(
      `<path d="M ${n(wx + ww / 2)} ${n(wy)} V ${n(wy + wh)} M ${n(wx)} ${n(wy + wh / 2)} H ${n(wx + ww)}" stroke="${pal.ink}" stroke-width="4"/>`,
    );
  } else {
    const shelfY = wy + wh * 0.8;
    let bx = wx;
    while (bx < wx + ww) {
      const bw = rnd.range(8, 16);
      const bh = rnd.range(wh * 0.35, wh * 0.6);
      parts.push(
        `<rect x="${n(bx)}" y="${n(shelfY - bh)}" width="${n(bw)}" height="${n(bh)}" fill="${rnd.pick([pal.accent, pal.accent2, pal.mid, pal.far])}" stroke="${pal.ink}" stroke-width="1.5"/>`,
      );
      bx += bw + 1;
    }
    parts.push(`<rect x="${n(wx - 6)}" y="${n(shelfY)}" width="${n(ww + 12)}" height="8" fill="${darken(wall, 0.45)}"/>`);
  }
  return { svg: parts.join(""), groundY: floorY + (h - floorY) * 0.5 };
}

/** Manga focus lines: black wedges rushing toward a point, for the dramatic beat of a page. */
export function focusLines(rnd: Random, w: number, h: number, ink: string, background = "#ffffff"): string {
  const cx = w * rnd.range(0.4, 0.6);
  const cy = h * rnd.range(0.4, 0.6);
  const outer = Math.hypot(w, h);
  const inner = Math.min(w, h) * 0.28;
  const parts = [`<rect x="-5" y="-5" width="${n(w + 10)}" height="${n(h + 10)}" fill="${background}"/>`];
  const count = 72;
  for (let i = 0; i < count; i++) {
    const a = (i / count) * Math.PI * 2 + rnd.range(-0.03, 0.03);
    const spread = rnd.range(0.006, 0.022);
    const r0 = inner * rnd.range(0.9, 1.6);
    parts.push(
      `<polygon points="${n(cx + Math.cos(a - spread) * outer)},${n(cy + Math.sin(a - spread) * outer)} ${n(cx + Math.cos(a + spread) * outer)},${n(cy + Math.sin(a + spread) * outer)} ${n(cx + Math.cos(a) * r0)},${n(cy + Math.sin(a) * r0)}" fill="${ink}"/>`,
    );
  }
  return parts.join("");
}

function speedLines(doc: SvgDoc, rnd: Random, pal: Palette, w: number, h: number): string {
  const parts = [
    `<rect x="-5" y="-5" width="${n(w + 10)}" height="${n(h + 10)}" fill="${doc.linear(
      [
        [0, lighten(pal.accent2, 0.5)],
        [1, "#ffffff"],
      ],
      0,
    )}"/>`,
  ];
  for (let i = 0, count = Math.round(h / 9); i < count; i++) {
    const y = rnd.range(0, h);
    const len = rnd.range(0.2, 0.7) * w;
    const x = rnd.range(-0.2, 1) * w;
    parts.push(
      `<rect x="${n(x)}" y="${n(y)}" width="${n(len)}" height="${n(rnd.range(1, 3.5))}" fill="${pal.ink}" fill-opacity="${n(rnd.range(0.35, 0.9))}"/>`,
    );
  }
  return parts.join("");
}

/** A background for a panel of w x h (local coordinates). */
export function scene(doc: SvgDoc, rnd: Random, pal: Palette, kind: SceneKind, w: number, h: number): Scene {
  switch (kind) {
    case "hills":
      return hills(doc, rnd, pal, w, h);
    case "city":
      return city(doc, rnd, pal, w, h);
    case "sea":
      return sea(doc, rnd, pal, w, h);
    case "interior":
      return interior(doc, rnd, pal, w, h);
    case "sky":
      return { svg: sky(doc, rnd, pal, w, h, h), groundY: h * 1.1 };
    case "focus":
      return { svg: focusLines(rnd, w, h, pal.ink, pal.mono ? "#ffffff" : lighten(pal.accent2, 0.7)), groundY: h * 0.95 };
    case "speed":
      return { svg: speedLines(doc, rnd, pal, w, h), groundY: h * 0.95 };
  }
}

export { ridge, hillPoints };
