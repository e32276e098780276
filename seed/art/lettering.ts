import type { Random } from "../random.ts";
import { esc, n, type Point } from "./svg.ts";

/** Comic lettering: narrow, bold capitals. */
export const LETTERING_FONT = `font-family="Liberation Sans Narrow" font-weight="bold"`;
export const SFX_FONT = `font-family="DejaVu Sans" font-weight="bold" font-style="oblique"`;
export const TITLE_FONT = `font-family="DejaVu Sans" font-weight="bold"`;

// Advance widths of Liberation Sans Bold (metric-compatible with Arial Bold), in 1/1000 em, for
// ASCII 32..126. Enough to size balloons around their text without a layout engine.
const BOLD_WIDTHS = [
  278, 333, 474, 556, 556, 889, 722, 238, 333, 333, 389, 584, 278, 333, 278, 278, 556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 333,
  333, 584, 584, 584, 611, 975, 722, 722, 722, 722, 667, 611, 778, 722, 278, 556, 722, 611, 833, 722, 778, 667, 778, 722, 667, 611, 722,
  667, 944, 667, 667, 611, 333, 278, 333, 584, 556, 333, 556, 611, 556, 611, 556, 333, 611, 611, 278, 278, 556, 278, 889, 611, 611, 611,
  611, 389, 556, 333, 611, 556, 778, 556, 556, 500, 389, 280, 389, 584,
];
const NARROW = 0.82;

export type FontKind = "narrow" | "regular" | "wide";
const FACTOR: Record<FontKind, number> = { narrow: NARROW, regular: 1, wide: 1.12 };

/** Estimated width in px of `text` at `size` px. `wide` approximates DejaVu Sans Bold. */
export function textWidth(text: string, size: number, font: FontKind = "narrow"): number {
  let units = 0;
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    units += code >= 32 && code <= 126 ? BOLD_WIDTHS[code - 32]! : ch === "\u2019" ? 278 : 1000;
  }
  return (units / 1000) * size * FACTOR[font];
}

/**
 * Word wrap to lines no wider than maxWidth, balanced: the narrowest width that still needs the
 * same number of lines, so a balloon never ends on a lonely word.
 */
export function wrap(text: string, size: number, maxWidth: number, font: FontKind = "narrow"): string[] {
  const lines = greedyWrap(text, size, maxWidth, font);
  if (lines.length < 2) return lines;
  let lo = 0;
  let hi = maxWidth;
  let best = lines;
  for (let i = 0; i < 12; i++) {
    const mid = (lo + hi) / 2;
    const attempt = greedyWrap(text, size, mid, font);
    if (attempt.length <= lines.length) {
      best = attempt;
      hi = mid;
    } else {
      lo = mid;
    }
  }
  return best;
}

function greedyWrap(text: string, size: number, maxWidth: number, font: FontKind): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const candidate = line ? `${line} ${word}` : word;
    if (line && textWidth(candidate, size, font) > maxWidth) {
      lines.push(line);
      line = word;
    } else {
      line = candidate;
    }
  }
  if (line) lines.push(line);
  return lines;
}

/** Centred lines of text around (cx, cy). */
export function textBlock(lines: readonly string[], cx: number, cy: number, size: number, attrs: string, lineHeight = 1.12): string {
  const top = cy - ((lines.length - 1) * size * lineHeight) / 2 + size * 0.35;
  const spans = lines.map((line, i) => `<tspan x="${n(cx)}" y="${n(top + i * size * lineHeight)}">${esc(line)}</tspan>`).join("");
  return `<text text-anchor="middle" font-size="${n(size)}" ${attrs}>${spans}</text>`;
}

export type BalloonKind = "speech" | "shout" | "thought" | "whisper";

export interface BalloonSpec {
  text: string;
  /** Where the balloon's centre goes. */
  at: Point;
  size: number;
  maxWidth: number;
  /** The speaker's mouth; no tail when absent (off-panel voice). */
  tail?: Point;
  kind: BalloonKind;
  ink: string;
}

export interface BalloonShape {
  svg: string;
  rx: number;
  ry: number;
}

/** The radii of an ellipse that holds a text block of half-width a and half-height b with padding. */
function radiiFor(a: number, b: number, size: number): [number, number] {
  let rx = a + size * 1.1;
  let ry = b + size * 0.85;
  const k = Math.hypot(a / rx, b / ry);
  if (k > 0.9) {
    rx *= k / 0.9;
    ry *= k / 0.9;
  }
  return [rx, ry];
}

/** A tail from inside the balloon to the speaker, curved a little. */
function tailPath(c: Point, rx: number, ry: number, tip: Point, width: number): string {
  const angle = Math.atan2(tip.y - c.y, tip.x - c.x);
  const bx = c.x + Math.cos(angle) * rx * 0.7;
  const by = c.y + Math.sin(angle) * ry * 0.7;
  const px = -Math.sin(angle) * width;
  const py = Math.cos(angle) * width;
  const mx = (bx + tip.x) / 2 + px * 0.6;
  const my = (by + tip.y) / 2 + py * 0.6;
  return `M ${n(bx - px)} ${n(by - py)} Q ${n(mx)} ${n(my)} ${n(tip.x)} ${n(tip.y)} Q ${n(mx + px * 0.4)} ${n(my + py * 0.4)} ${n(bx + px)} ${n(by + py)} Z`;
}

function clampTail(c: Point, rx: number, ry: number, tail: Point): Point {
  // Keep tails short enough to read as pointing, not as a spear across the panel.
  const dx = tail.x - c.x;
  const dy = tail.y - c.y;
  const d = Math.hypot(dx, dy);
  const max = Math.max(rx, ry) + 90;
  return d <= max ? tail : { x: c.x + (dx / d) * max, y: c.y + (dy / d) * max };
}

export function balloon(rnd: Random, spec: BalloonSpec): BalloonShape {
  const { size, ink, at: c } = spec;
  const lines = wrap(spec.text.toUpperCase(), size, spec.maxWidth);
  const a = Math.max(...lines.map((l) => textWidth(l, size))) / 2;
  const b = (lines.length * size * 1.12) / 2;
  const [rx, ry] = radiiFor(a, b, size);
  const text = textBlock(lines, c.x, c.y, size, `${LETTERING_FONT} fill="${ink}"`);
  const strokeW = 3;
  let outline: string;
  let fillOnly: string;

  if (spec.kind === "shout") {
    const spikes = rnd.int(16, 24);
    const pts: string[] = [];
    for (let i = 0; i < spikes * 2; i++) {
      const angle = (i / (spikes * 2)) * Math.PI * 2;
      const r = i % 2 === 0 ? 1.28 + rnd.range(-0.05, 0.1) : 1.02;
      pts.push(`${n(c.x + Math.cos(angle) * rx * r)},${n(c.y + Math.sin(angle) * ry * r)}`);
    }
    const shape = `<polygon points="${pts.join(" ")}"/>`;
    outline = `<g fill="#ffffff" stroke="${ink}" stroke-width="${strokeW}" stroke-linejoin="miter">${shape}</g>`;
    fillOnly = "";
  } else if (spec.kind === "thought") {
    const bumps = rnd.int(9, 13);
    const circles: string[] = [];
    for (let i = 0; i < bumps; i++) {
      const angle = (i / bumps) * Math.PI * 2;
      const r = Math.min(rx, ry) * rnd.range(0.42, 0.55);
      circles.push(`<circle cx="${n(c.x + Math.cos(angle) * rx * 0.82)}" cy="${n(c.y + Math.sin(angle) * ry * 0.82)}" r="${n(r)}"/>`);
    }
    const core = `<ellipse cx="${n(c.x)}" cy="${n(c.y)}" rx="${n(rx * 0.9)}" ry="${n(ry * 0.9)}"/>`;
    const trail: string[] = [];
    if (spec.tail) {
      // Bubbles shrinking away from the balloon's edge toward the thinker.
      const angle = Math.atan2(spec.tail.y - c.y, spec.tail.x - c.x);
      const edge = Math.hypot(Math.cos(angle) * rx * 1.15, Math.sin(angle) * ry * 1.15);
      for (let i = 0; i < 3; i++) {
        const d = edge + size * (0.3 + i * 0.75);
        trail.push(`<circle cx="${n(c.x + Math.cos(angle) * d)}" cy="${n(c.y + Math.sin(angle) * d)}" r="${n(size * (0.42 - i * 0.1))}"/>`);
      }
    }
    outline = `<g fill="#ffffff" stroke="${ink}" stroke-width="${strokeW * 2}">${circles.join("")}</g>`;
    fillOnly = `<g fill="#ffffff">${circles.join("")}${core}</g><g fill="#ffffff" stroke="${ink}" stroke-width="${strokeW}">${trail.join("")}</g>`;
  } else {
    const ellipse = `<ellipse cx="${n(c.x)}" cy="${n(c.y)}" rx="${n(rx)}" ry="${n(ry)}"/>`;
    const tail = spec.tail ? `<path d="${tailPath(c, rx, ry, clampTail(c, rx, ry, spec.tail), size * 0.45)}"/>` : "";
    const dash = spec.kind === "whisper" ? ` stroke-dasharray="10 7"` : "";
    // Drawn twice: a double-width outline, then the fill on top, so the tail and the balloon
    // merge into one shape whose outline keeps its width.
    outline = `<g fill="#ffffff" stroke="${ink}" stroke-width="${strokeW * 2}"${dash}>${tail}${ellipse}</g>`;
    fillOnly = `<g fill="#ffffff">${tail}${ellipse}</g>`;
  }
  return { svg: outline + fillOnly + text, rx: rx * (spec.kind === "shout" ? 1.3 : 1), ry: ry * (spec.kind === "shout" ? 1.3 : 1) };
}

/** A narration box ("Meanwhile..."), its top-left corner at (x, y). */
export function caption(
  text: string,
  x: number,
  y: number,
  size: number,
  maxWidth: number,
  fill: string,
  ink: string,
): { svg: string; w: number; h: number } {
  const lines = wrap(text.toUpperCase(), size, maxWidth - size * 1.2);
  const w = Math.max(...lines.map((l) => textWidth(l, size))) + size * 1.2;
  const h = lines.length * size * 1.15 + size * 0.8;
  const spans = lines
    .map((l, i) => `<tspan x="${n(x + size * 0.6)}" y="${n(y + size * 1.15 + i * size * 1.15)}">${esc(l)}</tspan>`)
    .join("");
  return {
    svg:
      `<rect x="${n(x)}" y="${n(y)}" width="${n(w)}" height="${n(h)}" fill="${fill}" stroke="${ink}" stroke-width="3"/>` +
      `<text font-size="${n(size)}" font-family="Liberation Sans Narrow" font-weight="bold" font-style="italic" fill="${ink}">${spans}</text>`,
    w,
    h,
  };
}

/** Sound effect lettering: tilted, growing letters with a thick outline and a drop shadow. */
export function sfx(rnd: Random, text: string, x: number, y: number, size: number, fill: string, ink: string): string {
  const letters = Array.from(text);
  const grow = rnd.range(0, 0.06);
  const rotate = rnd.range(-14, 8);
  const parts: string[] = [];
  let cursor = 0;
  letters.forEach((letter, i) => {
    const s = size * (1 + grow * i);
    if (letter === " ") {
      cursor += s * 0.35;
      return;
    }
    const dy = Math.sin(i * 0.9) * size * 0.08;
    const tilt = rnd.range(-8, 8);
    const lx = x + cursor;
    const common = `x="${n(lx)}" y="${n(y + dy)}" font-size="${n(s)}" ${SFX_FONT} transform="rotate(${n(tilt)} ${n(lx)} ${n(y + dy)})"`;
    parts.push(
      `<text ${common} fill="${ink}" stroke="${ink}" stroke-width="${n(s * 0.2)}" stroke-linejoin="round" dx="${n(s * 0.06)}" dy="${n(s * 0.06)}">${esc(letter)}</text>`,
    );
    parts.push(
      `<text ${common} fill="${fill}" stroke="${ink}" stroke-width="${n(s * 0.1)}" stroke-linejoin="round" paint-order="stroke">${esc(letter)}</text>`,
    );
    cursor += textWidth(letter, s, "wide") * 0.98;
  });
  return `<g transform="rotate(${n(rotate)} ${n(x)} ${n(y)})">${parts.join("")}</g>`;
}

/** The width an SFX word will take (letters grow by up to 6% each), to place it inside a panel. */
export const sfxWidth = (text: string, size: number) => textWidth(text, size * (1 + 0.03 * text.length), "wide");

/** The largest size (down to minSize) at which `text` wraps into at most maxLines lines of maxWidth. */
export function fitText(
  text: string,
  maxWidth: number,
  maxLines: number,
  maxSize: number,
  minSize: number,
  font: FontKind = "wide",
): { lines: string[]; size: number } {
  for (let size = maxSize; size > minSize; size -= 4) {
    const lines = wrap(text, size, maxWidth, font);
    if (lines.length <= maxLines && lines.every((l) => textWidth(l, size, font) <= maxWidth)) return { lines, size };
  }
  return { lines: wrap(text, minSize, maxWidth, font), size: minSize };
}

/** Big display text with an ink outline and a hard drop shadow, centred on cx. */
export function displayText(
  lines: readonly string[],
  cx: number,
  top: number,
  size: number,
  fill: string,
  ink: string,
  lineHeight = 1.05,
): string {
  const spans = (dx: number) =>
    lines.map((l, i) => `<tspan x="${n(cx + dx)}" y="${n(top + size * 0.85 + i * size * lineHeight + dx)}">${esc(l)}</tspan>`).join("");
  const base = `text-anchor="middle" font-size="${n(size)}" ${TITLE_FONT} stroke-linejoin="round"`;
  return (
    `<text ${base} fill="${ink}" stroke="${ink}" stroke-width="${n(size * 0.16)}">${spans(size * 0.07)}</text>` +
    `<text ${base} fill="${fill}" stroke="${ink}" stroke-width="${n(size * 0.1)}" paint-order="stroke">${spans(0)}</text>`
  );
}
