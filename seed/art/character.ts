import type { Random } from "../random.ts";
import { darken, HAIR_COLOURS, OUTFIT_COLOURS, SKIN_TONES, tone } from "./palette.ts";
import { n } from "./svg.ts";

export type HairStyle = "short" | "bob" | "long" | "spiky" | "bun" | "cap" | "swept";
export type Expression = "calm" | "happy" | "surprised" | "angry" | "sad" | "determined";
export type Pose = "bust" | "full" | "wave" | "point";

/** How one member of a series' cast looks; the same look is reused on every page. */
export interface Look {
  skin: string;
  hair: string;
  hairStyle: HairStyle;
  outfit: string;
  trim: string;
  blush: boolean;
  glasses: boolean;
  /** Drawn for a black-and-white page: grey lips, hatched blush. */
  mono?: boolean;
}

export interface Placement {
  /** Centre of the head, in the drawing's coordinates. */
  x: number;
  y: number;
  /** 1 draws a head about 100 px wide. */
  scale: number;
  /** 1 looks right, -1 looks left. */
  facing: 1 | -1;
  expression: Expression;
  pose: Pose;
  ink: string;
}

const HAIR_STYLES: readonly HairStyle[] = ["short", "bob", "long", "spiky", "bun", "cap", "swept"];

export function randomLook(rnd: Random): Look {
  return {
    skin: rnd.pick(SKIN_TONES),
    hair: rnd.pick(HAIR_COLOURS),
    hairStyle: rnd.pick(HAIR_STYLES),
    outfit: rnd.pick(OUTFIT_COLOURS),
    trim: rnd.pick(OUTFIT_COLOURS),
    blush: rnd.chance(0.5),
    glasses: rnd.chance(0.2),
  };
}

/**
 * The same look for a black-and-white manga page: white skin, hair in solid ink, white or
 * screentone, clothes in tone or grey.
 */
export function monoLook(look: Look, rnd: Random): Look {
  const hairChoice = rnd.pick(["ink", "white", "tone"] as const);
  return {
    ...look,
    skin: "#ffffff",
    hair: hairChoice === "ink" ? "#222222" : hairChoice === "white" ? "#f4f4f4" : tone(0.45),
    outfit: rnd.chance(0.5) ? tone(0.3) : "#9a9a9a",
    trim: "#3a3a3a",
    mono: true,
  };
}

function backHair(look: Look, stroke: string): string {
  const s = `fill="${look.hair}" stroke="${stroke}" stroke-width="3.5" stroke-linejoin="round"`;
  switch (look.hairStyle) {
    case "long":
      return `<path ${s} d="M -60 -8 C -68 -74 68 -74 60 -8 L 72 128 Q 0 150 -72 128 Z"/>`;
    case "bob":
      return `<path ${s} d="M -58 -10 C -66 -72 66 -72 58 -10 L 64 50 Q 44 58 30 48 L 38 4 L -38 4 L -30 48 Q -44 58 -64 50 Z"/>`;
    case "bun":
      return `<circle ${s} cx="0" cy="-66" r="24"/>`;
    default:
      return "";
  }
}

function frontHair(rnd: Random, look: Look, stroke: string): string {
  const s = `fill="${look.hair}" stroke="${stroke}" stroke-width="3.5" stroke-linejoin="round"`;
  switch (look.hairStyle) {
    case "short":
    case "bun":
      return `<path ${s} d="M -50 -2 C -56 -52 -26 -64 0 -64 C 26 -64 56 -52 50 -2 C 44 -22 30 -30 16 -30 L 8 -20 L 0 -31 C -22 -30 -40 -22 -50 -2 Z"/>`;
    case "bob":
    case "long":
      return `<path ${s} d="M -54 -4 C -60 -64 60 -64 54 -4 L 45 -16 L 37 -2 L 27 -22 L 14 -6 L 2 -26 L -10 -8 L -22 -24 L -33 -6 L -44 -18 Z"/>`;
    case "swept":
      return `<path ${s} d="M -54 2 C -64 -66 44 -80 64 -28 C 50 -38 24 -38 -6 -22 C -26 -12 -42 -4 -54 2 Z"/>`;
    case "cap":
      return (
        `<path ${s} d="M -50 -2 C -54 -30 -40 -40 -20 -42 L 20 -42 C 40 -40 54 -30 50 -2 L 40 -20 L -40 -20 Z"/>` +
        `<path fill="${look.trim}" stroke="${stroke}" stroke-width="3.5" d="M -54 -18 C -54 -72 54 -72 54 -18 Z"/>` +
        `<path fill="${darken(look.trim, 0.2)}" stroke="${stroke}" stroke-width="3.5" stroke-linejoin="round" d="M 8 -20 Q 60 -28 90 -12 Q 62 -6 8 -12 Z"/>` +
        `<circle cx="0" cy="-56" r="5" fill="${stroke}"/>`
      );
    case "spiky": {
      const pts: string[] = [];
      const spikes = 7;
      for (let i = 0; i <= spikes * 2; i++) {
        const angle = Math.PI + (i / (spikes * 2)) * Math.PI;
        const r = i % 2 === 0 ? 50 : 76 + rnd.range(-6, 8);
        pts.push(`${n(Math.cos(angle) * r)},${n(Math.sin(angle) * r - 4)}`);
      }
      // A zigzag fringe over the forehead.
      pts.push("40,-18", "28,-4", "18,-24", "4,-8", "-8,-26", "-20,-8", "-32,-22", "-44,-2");
      return `<polygon ${s} points="${pts.join(" ")}"/>`;
    }
  }
}

function eyes(expression: Expression, stroke: string, look: Look): string {
  const fx = 6;
  const parts: string[] = [];
  // Brows in a darker shade of the hair; in ink on manga pages.
  const brow = look.mono ? stroke : darken(look.hair, 0.35);
  for (const side of [-1, 1]) {
    const ex = side * 17 + fx;
    const ey = 4;
    switch (expression) {
      case "happy":
        parts.push(
          `<path d="M ${ex - 8} ${ey + 3} Q ${ex} ${ey - 8} ${ex + 8} ${ey + 3}" fill="none" stroke="${stroke}" stroke-width="4" stroke-linecap="round"/>`,
        );
        break;
      case "surprised":
        parts.push(
          `<circle cx="${ex}" cy="${ey}" r="9" fill="#ffffff" stroke="${stroke}" stroke-width="3"/><circle cx="${ex + 1}" cy="${ey}" r="3.5" fill="${stroke}"/>`,
        );
        break;
      default: {
        const ry = expression === "determined" ? 6.5 : 8;
        parts.push(
          `<ellipse cx="${ex}" cy="${ey}" rx="5.5" ry="${ry}" fill="${stroke}"/><circle cx="${ex + 1.8}" cy="${ey - 3}" r="2.1" fill="#ffffff"/>`,
        );
      }
    }
    // Brows carry most of the emotion.
    const inner = side === -1 ? ex + 8 : ex - 8;
    const outer = side === -1 ? ex - 9 : ex + 9;
    const by = ey - 15;
    const browPath =
      expression === "angry" || expression === "determined"
        ? `M ${outer} ${by - 4} L ${inner} ${by + 3}`
        : expression === "sad"
          ? `M ${outer} ${by + 3} L ${inner} ${by - 4}`
          : expression === "surprised"
            ? `M ${outer} ${by - 4} Q ${ex} ${by - 11} ${inner} ${by - 4}`
            : `M ${outer} ${by} Q ${ex} ${by - 5} ${inner} ${by}`;
    parts.push(`<path d="${browPath}" fill="none" stroke="${brow}" stroke-width="3.5" stroke-linecap="round"/>`);
  }
  return parts.join("");
}

function mouth(expression: Expression, stroke: string, mono: boolean): string {
  const mx = 5;
  const my = 29;
  const lips = mono ? "#5a5a5a" : "#9b2f3f";
  switch (expression) {
    case "happy":
      return `<path d="M ${mx - 11} ${my - 3} Q ${mx} ${my + 15} ${mx + 11} ${my - 3} Z" fill="${lips}" stroke="${stroke}" stroke-width="2.5" stroke-linejoin="round"/>`;
    case "surprised":
      return `<ellipse cx="${mx}" cy="${my + 2}" rx="6" ry="8" fill="${lips}" stroke="${stroke}" stroke-width="2.5"/>`;
    case "angry":
      return `<path d="M ${mx - 10} ${my + 5} Q ${mx} ${my - 5} ${mx + 10} ${my + 5} Z" fill="#ffffff" stroke="${stroke}" stroke-width="2.5" stroke-linejoin="round"/>`;
    case "sad":
      return `<path d="M ${mx - 8} ${my + 4} Q ${mx} ${my - 3} ${mx + 8} ${my + 4}" fill="none" stroke="${stroke}" stroke-width="3" stroke-linecap="round"/>`;
    case "determined":
      return `<path d="M ${mx - 8} ${my + 1} L ${mx + 8} ${my}" stroke="${stroke}" stroke-width="3" stroke-linecap="round"/>`;
    case "calm":
      return `<path d="M ${mx - 7} ${my} Q ${mx} ${my + 6} ${mx + 7} ${my}" fill="none" stroke="${stroke}" stroke-width="3" stroke-linecap="round"/>`;
  }
}

function arm(from: [number, number], via: [number, number], to: [number, number], look: Look, stroke: string): string {
  const d = `M ${from[0]} ${from[1]} Q ${via[0]} ${via[1]} ${to[0]} ${to[1]}`;
  return (
    `<path d="${d}" fill="none" stroke="${stroke}" stroke-width="25" stroke-linecap="round"/>` +
    `<path d="${d}" fill="none" stroke="${look.outfit}" stroke-width="18" stroke-linecap="round"/>` +
    `<circle cx="${to[0]}" cy="${to[1]}" r="11" fill="${look.skin}" stroke="${stroke}" stroke-width="3"/>`
  );
}

function body(look: Look, pose: Pose, stroke: string): string {
  const outline = `stroke="${stroke}" stroke-width="3.5" stroke-linejoin="round"`;
  const neck = `<rect x="-13" y="34" width="26" height="36" fill="${look.mono ? "#ececec" : darken(look.skin, 0.08)}" ${outline}/>`;
  if (pose === "bust") {
    return (
      neck +
      `<path fill="${look.outfit}" ${outline} d="M -22 64 C -64 66 -86 84 -92 130 L -98 230 L 98 230 L 92 130 C 86 84 64 66 22 64 Z"/>` +
      `<path fill="${look.skin}" ${outline} d="M -22 64 L 0 98 L 22 64 Z"/>` +
      `<path fill="none" stroke="${look.trim}" stroke-width="7" d="M -24 66 L 0 102 L 24 66"/>`
    );
  }
  const legs = darken(look.trim, 0.45);
  const parts = [
    `<rect x="-38" y="166" width="32" height="98" rx="8" fill="${legs}" ${outline}/>`,
    `<rect x="6" y="166" width="32" height="98" rx="8" fill="${legs}" ${outline}/>`,
    `<ellipse cx="-24" cy="268" rx="23" ry="10" fill="${stroke}"/>`,
    `<ellipse cx="26" cy="268" rx="23" ry="10" fill="${stroke}"/>`,
    neck,
    `<path fill="${look.outfit}" ${outline} d="M -18 62 C -46 64 -58 76 -60 102 L -54 178 L 54 178 L 60 102 C 58 76 46 64 18 62 Z"/>`,
    `<path fill="${look.skin}" ${outline} d="M -18 62 L 0 88 L 18 62 Z"/>`,
    `<rect x="-54" y="150" width="108" height="12" fill="${look.trim}"/>`,
    arm([-50, 84], [-74, 130], [-62, 172], look, stroke),
  ];
  if (pose === "wave") parts.push(arm([50, 84], [92, 50], [78, -4], look, stroke));
  else if (pose === "point") parts.push(arm([50, 86], [88, 96], [126, 78], look, stroke));
  else parts.push(arm([50, 84], [74, 130], [62, 172], look, stroke));
  return parts.join("");
}

/** A character: head, hair, face with an expression, and a bust or a full body. */
export function character(rnd: Random, look: Look, at: Placement): string {
  const stroke = at.ink;
  const head =
    `<ellipse cx="-46" cy="8" rx="8" ry="11" fill="${look.skin}" stroke="${stroke}" stroke-width="3"/>` +
    `<ellipse cx="46" cy="8" rx="8" ry="11" fill="${look.skin}" stroke="${stroke}" stroke-width="3"/>` +
    `<ellipse cx="0" cy="0" rx="48" ry="52" fill="${look.skin}" stroke="${stroke}" stroke-width="3.5"/>`;
  // Manga blushes with a few hatched strokes; colour pages with a soft pink.
  const blush = !look.blush
    ? ""
    : look.mono
      ? `<path d="M -30 22 l 5 -8 M -24 22 l 5 -8 M -18 22 l 5 -8 M 28 22 l 5 -8 M 34 22 l 5 -8 M 40 22 l 5 -8" stroke="${stroke}" stroke-width="1.8" stroke-linecap="round"/>`
      : `<ellipse cx="-22" cy="18" rx="8" ry="4" fill="#ff8fa3" fill-opacity="0.45"/><ellipse cx="34" cy="18" rx="8" ry="4" fill="#ff8fa3" fill-opacity="0.45"/>`;
  const glasses = look.glasses
    ? `<g fill="#ffffff" fill-opacity="0.15" stroke="${stroke}" stroke-width="2.5"><circle cx="-11" cy="4" r="13"/><circle cx="23" cy="4" r="13"/></g><path d="M 2 2 L 10 2" stroke="${stroke}" stroke-width="2.5"/>`
    : "";
  const art =
    backHair(look, stroke) +
    body(look, at.pose, stroke) +
    head +
    frontHair(rnd, look, stroke) +
    eyes(at.expression, stroke, look) +
    mouth(at.expression, stroke, look.mono === true) +
    blush +
    glasses;
  const sx = Math.round(at.scale * at.facing * 1000) / 1000;
  const sy = Math.round(at.scale * 1000) / 1000;
  return `<g transform="translate(${n(at.x)},${n(at.y)}) scale(${sx},${sy})">${art}</g>`;
}

/** A soft shadow under a standing figure. */
export const groundShadow = (x: number, y: number, scale: number) =>
  `<ellipse cx="${n(x)}" cy="${n(y + 272 * scale)}" rx="${n(70 * scale)}" ry="${n(12 * scale)}" fill="#000000" fill-opacity="0.18"/>`;

export const EXPRESSIONS: readonly Expression[] = ["calm", "happy", "surprised", "angry", "sad", "determined"];
