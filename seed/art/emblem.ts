import { randomFor, type Random } from "../random.ts";
import { TITLE_FONT, textWidth } from "./lettering.ts";
import { darken, lighten, type Palette } from "./palette.ts";
import { hillPoints, ridge } from "./scenery.ts";
import { dotField, esc, n, SvgDoc } from "./svg.ts";

export const EMBLEM_SIZE = 512;

const MINOR_WORDS = new Set(["the", "of", "a", "an", "and", "&", "to", "over", "in", "on", "at", "for", "de", "la", "el"]);

/** Up to two initials from the words that matter: "Ink & Brushes" gives "IB", "The Moth Courier" gives "MC". */
export function initials(name: string): string {
  const words = name.split(/[\s\-_:]+/).filter((w) => /[\p{L}\p{N}]/u.test(w));
  const major = words.filter((w) => !MINOR_WORDS.has(w.toLowerCase()));
  const chosen = (major.length > 0 ? major : words).slice(0, 2);
  return (
    chosen
      .map((w) => Array.from(w.replace(/^[^\p{L}\p{N}]+/u, ""))[0] ?? "")
      .join("")
      .toUpperCase() || "?"
  );
}

type Motif = "rays" | "hills" | "stars" | "dots" | "waves";

function motif(rnd: Random, kind: Motif, pal: Palette, c: number, r: number): string {
  const parts: string[] = [];
  switch (kind) {
    case "rays":
      for (let i = 0; i < 16; i += 2) {
        const a0 = (i / 16) * Math.PI * 2;
        const a1 = ((i + 1) / 16) * Math.PI * 2;
        parts.push(
          `<polygon points="${c},${c} ${n(c + Math.cos(a0) * r * 1.5)},${n(c + Math.sin(a0) * r * 1.5)} ${n(c + Math.cos(a1) * r * 1.5)},${n(c + Math.sin(a1) * r * 1.5)}" fill="#ffffff" fill-opacity="0.22"/>`,
        );
      }
      break;
    case "hills":
      parts.push(ridge(hillPoints(rnd, c * 2, c + r * 0.45, r * 0.35), c * 2, pal.mid));
      parts.push(ridge(hillPoints(rnd, c * 2, c + r * 0.75, r * 0.2), c * 2, pal.near));
      break;
    case "stars":
      for (let i = 0; i < 14; i++) {
        const x = c + rnd.range(-r, r);
        const y = c + rnd.range(-r, r);
        const s = rnd.range(4, 11);
        parts.push(
          `<polygon points="${n(x)},${n(y - s)} ${n(x + s * 0.3)},${n(y - s * 0.3)} ${n(x + s)},${n(y)} ${n(x + s * 0.3)},${n(y + s * 0.3)} ${n(x)},${n(y + s)} ${n(x - s * 0.3)},${n(y + s * 0.3)} ${n(x - s)},${n(y)} ${n(x - s * 0.3)},${n(y - s * 0.3)}" fill="#ffffff" fill-opacity="0.8"/>`,
        );
      }
      break;
    case "dots":
      parts.push(dotField({ x: 0, y: c, w: c * 2, h: c }, 16, 3.4, darken(pal.near, 0.3), 0.45));
      break;
    case "waves":
      for (let i = 0; i < 5; i++) {
        const y = c + r * (0.2 + i * 0.18);
        parts.push(
          `<path d="M ${c - r} ${n(y)} q ${n(r / 4)} -18 ${n(r / 2)} 0 t ${n(r / 2)} 0 t ${n(r / 2)} 0 t ${n(r / 2)} 0" fill="none" stroke="#ffffff" stroke-opacity="0.35" stroke-width="7"/>`,
        );
      }
      break;
  }
  return parts.join("");
}

/** A round emblem with initials, on a transparent square: the logo of a hub or a series. */
export function emblem(key: string, name: string, pal: Palette): string {
  const rnd = randomFor("emblem", key);
  const S = EMBLEM_SIZE;
  const c = S / 2;
  const doc = new SvgDoc(S, S);
  const ink = pal.ink;
  const ring = rnd.pick([pal.accent, pal.accent2, pal.far]);
  const inner = 196;
  const body: string[] = [
    `<circle cx="${c}" cy="${c}" r="250" fill="${ink}"/>`,
    `<circle cx="${c}" cy="${c}" r="238" fill="${doc.linear([
      [0, lighten(ring, 0.15)],
      [1, darken(ring, 0.25)],
    ])}"/>`,
  ];
  // Studs around the ring.
  const studs = rnd.pick([12, 16, 20, 24]);
  for (let i = 0; i < studs; i++) {
    const a = (i / studs) * Math.PI * 2;
    body.push(
      `<circle cx="${n(c + Math.cos(a) * 217)}" cy="${n(c + Math.sin(a) * 217)}" r="${rnd.chance(0.15) ? 3 : 6}" fill="#ffffff" fill-opacity="0.85"/>`,
    );
  }
  const clip = doc.clip(`<circle cx="${c}" cy="${c}" r="${inner}"/>`);
  const field = doc.radial(
    [
      [0, lighten(pal.skyBottom, 0.3)],
      [1, pal.skyTop],
    ],
    0.45,
    0.35,
    0.7,
  );
  body.push(
    `<g clip-path="${clip}"><rect width="${S}" height="${S}" fill="${field}"/>${motif(rnd, rnd.pick(["rays", "hills", "stars", "dots", "waves"] as const), pal, c, inner)}</g>`,
    `<circle cx="${c}" cy="${c}" r="${inner}" fill="none" stroke="${ink}" stroke-width="10"/>`,
  );
  const letters = initials(name);
  const size = Math.min(letters.length === 1 ? 250 : 190, (inner * 1.55) / (textWidth(letters, 1, "wide") || 1));
  const y = c + size * 0.36;
  const fill = rnd.pick(["#ffffff", pal.sun, lighten(pal.accent, 0.1)]);
  const base = `x="${c}" text-anchor="middle" font-size="${n(size)}" ${TITLE_FONT} stroke-linejoin="round"`;
  body.push(
    `<text ${base} y="${n(y + size * 0.06)}" fill="${ink}" stroke="${ink}" stroke-width="${n(size * 0.14)}" dx="${n(size * 0.05)}">${esc(letters)}</text>`,
    `<text ${base} y="${n(y)}" fill="${fill}" stroke="${ink}" stroke-width="${n(size * 0.09)}" paint-order="stroke">${esc(letters)}</text>`,
  );
  return doc.render(body.join(""));
}
