/** Small helpers to write SVG by hand: escaping, number formatting and a document with unique defs ids. */

export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface Point {
  x: number;
  y: number;
}

/** Escapes text for an SVG text node or attribute. */
export const esc = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

/** One decimal is plenty for pixels and keeps the SVG small. */
export const n = (value: number) => (Math.round(value * 10) / 10).toString();

export const points = (pts: readonly Point[]) => pts.map((p) => `${n(p.x)},${n(p.y)}`).join(" ");

/** A gradient stop list: `[offset 0..1, color, opacity?]`. */
export type Stops = readonly (readonly [number, string, number?])[];

const stopTags = (stops: Stops) =>
  stops
    .map(
      ([offset, color, opacity]) =>
        `<stop offset="${n(offset)}" stop-color="${color}"${opacity === undefined ? "" : ` stop-opacity="${n(opacity)}"`}/>`,
    )
    .join("");

/** An SVG document under construction: shapes go in the body, gradients and clips in <defs>. */
export class SvgDoc {
  private readonly defs: string[] = [];
  private counter = 0;

  readonly width: number;
  readonly height: number;
  constructor(width: number, height: number) {
    this.width = width;
    this.height = height;
  }

  private id(prefix: string) {
    return `${prefix}${++this.counter}`;
  }

  /** A linear gradient from top to bottom (angle 90) or at another angle in degrees; returns `url(#id)`. */
  linear(stops: Stops, angle = 90): string {
    const id = this.id("lg");
    const rad = (angle * Math.PI) / 180;
    const dx = Math.cos(rad) / 2;
    const dy = Math.sin(rad) / 2;
    this.defs.push(
      `<linearGradient id="${id}" x1="${n(0.5 - dx)}" y1="${n(0.5 - dy)}" x2="${n(0.5 + dx)}" y2="${n(0.5 + dy)}">${stopTags(stops)}</linearGradient>`,
    );
    return `url(#${id})`;
  }

  /** A radial gradient centred at (cx, cy) in the shape's bounding box (0..1). */
  radial(stops: Stops, cx = 0.5, cy = 0.5, r = 0.5): string {
    const id = this.id("rg");
    this.defs.push(`<radialGradient id="${id}" cx="${n(cx)}" cy="${n(cy)}" r="${n(r)}">${stopTags(stops)}</radialGradient>`);
    return `url(#${id})`;
  }

  /** A clip path from any shape markup; returns the attribute value `url(#id)`. */
  clip(shape: string): string {
    const id = this.id("cp");
    this.defs.push(`<clipPath id="${id}">${shape}</clipPath>`);
    return `url(#${id})`;
  }

  render(body: string): string {
    return (
      `<svg xmlns="http://www.w3.org/2000/svg" width="${this.width}" height="${this.height}" viewBox="0 0 ${this.width} ${this.height}">` +
      `<defs>${this.defs.join("")}</defs>${body}</svg>`
    );
  }
}

// librsvg renders <pattern> fills slowly (about half a microsecond per filled pixel), so halftone
// dots and stripes are drawn as one path of many small shapes instead.

/** Halftone dots over a box, as one path: a diamond lattice, two dots per spacing x spacing cell. */
export function dotField(box: Box, spacing: number, radius: number, colour: string, opacity = 1): string {
  const d: string[] = [];
  const r = n(radius);
  const across = n(radius * 2);
  for (let y = box.y, row = 0; y <= box.y + box.h + spacing / 2; y += spacing / 2, row++) {
    for (let x = box.x + (row % 2) * (spacing / 2); x <= box.x + box.w + spacing / 2; x += spacing) {
      d.push(`M${n(x - radius)} ${n(y)}a${r} ${r} 0 1 0 ${across} 0a${r} ${r} 0 1 0 -${across} 0`);
    }
  }
  return `<path d="${d.join("")}" fill="${colour}"${opacity < 1 ? ` fill-opacity="${n(opacity)}"` : ""}/>`;
}

/** Diagonal stripes over a box (they overrun it; clip when that matters). */
export function stripeField(box: Box, spacing: number, width: number, colour: string, opacity = 1): string {
  const d: string[] = [];
  for (let k = -box.h; k <= box.w + spacing; k += spacing) {
    d.push(`M${n(box.x + k)} ${n(box.y + box.h)}L${n(box.x + k + box.h)} ${n(box.y)}`);
  }
  return `<path d="${d.join("")}" stroke="${colour}" stroke-width="${n(width)}"${opacity < 1 ? ` stroke-opacity="${n(opacity)}"` : ""} fill="none"/>`;
}
