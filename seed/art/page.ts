import { CAPTIONS, DIALOGUE, SHOUTS, SOUND_EFFECTS, THOUGHTS, WHISPERS } from "../content/lines.ts";
import { randomFor, type Random } from "../random.ts";
import { character, EXPRESSIONS, groundShadow, monoLook, type Expression, type Look, type Pose } from "./character.ts";
import { balloon, caption, sfx, sfxWidth, type BalloonKind } from "./lettering.ts";
import { lighten, tone, type Palette } from "./palette.ts";
import { scene, type SceneKind } from "./scenery.ts";
import type { SeriesStyle } from "./style.ts";
import { esc, n, points, SvgDoc, type Box, type Point } from "./svg.ts";

export const PAGE_WIDTH = 900;
export const PAGE_HEIGHT = 1350;
const MARGIN = 42;
const FOOTER = 58;
const GUTTER = 18;

export interface PageSpec {
  style: SeriesStyle;
  chapter: number;
  page: number;
}

interface Panel {
  poly: Point[];
  box: Box;
  /** The part of the box no slanted edge cuts into, in the box's own coordinates. */
  inner: { left: number; right: number };
}

/** Rows of panels for 3 to 6 panels a page, read left to right, top to bottom. */
const ROW_PLANS: Record<number, number[][]> = {
  3: [
    [1, 2],
    [2, 1],
    [1, 1, 1],
  ],
  4: [
    [1, 2, 1],
    [2, 2],
    [1, 1, 2],
    [2, 1, 1],
    [1, 3],
  ],
  5: [
    [2, 1, 2],
    [1, 2, 2],
    [2, 2, 1],
    [3, 2],
    [1, 3, 1],
  ],
  6: [
    [2, 2, 2],
    [3, 1, 2],
    [1, 2, 3],
    [2, 1, 1, 2],
    [1, 3, 2],
  ],
};

function layout(rnd: Random): Panel[] {
  const rows = rnd.pick(ROW_PLANS[rnd.int(3, 6)]!);
  const top = MARGIN;
  const bottom = PAGE_HEIGHT - FOOTER;
  const weights = rows.map((count) => rnd.range(0.75, 1.25) * (count === 1 ? 0.9 : 1));
  const totalWeight = weights.reduce((a, b) => a + b, 0);
  const usable = bottom - top - GUTTER * (rows.length - 1);
  const panels: Panel[] = [];
  let y = top;
  rows.forEach((count, r) => {
    const h = (usable * weights[r]!) / totalWeight;
    const widths = Array.from({ length: count }, () => rnd.range(0.7, 1.3));
    const sum = widths.reduce((a, b) => a + b, 0);
    const usableW = PAGE_WIDTH - MARGIN * 2 - GUTTER * (count - 1);
    // Dividers between panels; a slanted one now and then, as in manga.
    const xs: [number, number][] = [[MARGIN, MARGIN]];
    let x = MARGIN;
    for (let i = 0; i < count - 1; i++) {
      x += (usableW * widths[i]!) / sum;
      const slant = rnd.chance(0.3) ? rnd.range(-34, 34) : 0;
      xs.push([x + slant, x - slant]);
      x += GUTTER;
    }
    xs.push([PAGE_WIDTH - MARGIN, PAGE_WIDTH - MARGIN]);
    for (let i = 0; i < count; i++) {
      const [leftTop, leftBottom] = i === 0 ? xs[0]! : [xs[i]![0] + GUTTER, xs[i]![1] + GUTTER];
      const [rightTop, rightBottom] = xs[i + 1]!;
      const poly = [
        { x: leftTop, y },
        { x: rightTop, y },
        { x: rightBottom, y: y + h },
        { x: leftBottom, y: y + h },
      ];
      const minX = Math.min(leftTop, leftBottom);
      const maxX = Math.max(rightTop, rightBottom);
      const inner = { left: Math.max(leftTop, leftBottom) - minX, right: Math.min(rightTop, rightBottom) - minX };
      panels.push({ poly, box: { x: minX, y, w: maxX - minX, h }, inner });
    }
    y += h + GUTTER;
  });
  return panels;
}

type Shot = "establishing" | "dialogue" | "closeup" | "action" | "reaction";

/** Lines dealt without repeats within a page. */
class Deck {
  private readonly piles = new Map<readonly string[], string[]>();
  private readonly rnd: Random;
  constructor(rnd: Random) {
    this.rnd = rnd;
  }
  deal(lines: readonly string[]): string {
    let pile = this.piles.get(lines);
    if (!pile || pile.length === 0) {
      pile = this.rnd.shuffle(lines);
      this.piles.set(lines, pile);
    }
    return pile.pop()!;
  }
}

interface Speaker {
  head: Point;
  scale: number;
}

interface Drawn {
  art: string;
  speakers: Speaker[];
  shot: Shot;
}

function pickShot(rnd: Random, box: Box, actionUsed: boolean): Shot {
  const aspect = box.w / box.h;
  if (aspect > 1.7)
    return rnd.weighted([
      ["establishing", 3],
      ["dialogue", 2],
      ["action", actionUsed ? 0 : 1],
    ]);
  return rnd.weighted([
    ["dialogue", 3],
    ["closeup", 3],
    ["reaction", 1.5],
    ["action", actionUsed ? 0 : 2],
    ["establishing", aspect > 1.1 ? 1.5 : 0.5],
  ]);
}

function drawShot(
  doc: SvgDoc,
  rnd: Random,
  deck: Deck,
  pal: Palette,
  cast: Look[],
  settings: SceneKind[],
  shot: Shot,
  panel: Panel,
): Drawn {
  const { w, h } = panel.box;
  const ink = pal.ink;
  const parts: string[] = [];
  const speakers: Speaker[] = [];
  const person = (look: Look, x: number, y: number, scale: number, facing: 1 | -1, expression: Expression, pose: Pose) => {
    parts.push(character(rnd, look, { x, y, scale, facing, expression, pose, ink }));
    speakers.push({ head: { x, y }, scale });
  };
  const lookAt = (i: number) => cast[i % cast.length]!;
  const first = rnd.int(0, cast.length - 1);

  switch (shot) {
    case "establishing": {
      // Establishing shots are outdoors: the place first, the people small in it.
      const outdoors = settings.filter((s) => s !== "interior");
      const bg = scene(
        doc,
        rnd,
        pal,
        outdoors.length > 0 && rnd.chance(0.7) ? rnd.pick(outdoors) : rnd.pick(["hills", "city", "sea"] as const),
        w,
        h,
      );
      parts.push(bg.svg);
      const figures = rnd.weighted([
        [0, 1],
        [1, 2],
        [2, 2],
      ] as const);
      const scale = Math.min(0.42, (bg.groundY * 0.55) / 330);
      for (let i = 0; i < figures; i++) {
        const x = w * (figures === 1 ? rnd.range(0.3, 0.7) : 0.35 + i * 0.25);
        const y = bg.groundY - 270 * scale;
        parts.push(groundShadow(x, y, scale));
        person(lookAt(first + i), x, y, scale, i === 0 ? 1 : -1, rnd.pick(EXPRESSIONS), rnd.pick(["full", "wave", "point"] as const));
      }
      break;
    }
    case "dialogue": {
      const bg = scene(doc, rnd, pal, rnd.pick(settings), w, h);
      parts.push(bg.svg);
      // Cropped at the chest, with room above the heads for the balloons.
      const scale = Math.min(h / 400, w / 460);
      const y = h - 140 * scale;
      person(lookAt(first), w * 0.27, y, scale, 1, rnd.pick(EXPRESSIONS), "bust");
      person(lookAt(first + 1), w * 0.73, y + rnd.range(-10, 20) * scale, scale * rnd.range(0.92, 1.05), -1, rnd.pick(EXPRESSIONS), "bust");
      break;
    }
    case "closeup":
    case "reaction": {
      const kind: SceneKind = shot === "reaction" ? rnd.pick(["focus", "speed"] as const) : rnd.pick(["sky", "interior", ...settings]);
      parts.push(scene(doc, rnd, pal, kind, w, h).svg);
      if (pal.mono && kind !== "focus") {
        // A gradient of screentone rising from the bottom of the panel.
        parts.push(
          `<rect x="-5" y="${n(h * 0.4)}" width="${n(w + 10)}" height="${n(h * 0.65)}" fill="${doc.linear([
            [0, tone(0.35), 0],
            [1, tone(0.35), 0.9],
          ])}"/>`,
        );
      }
      const scale = Math.min(h / 240, w / 230) * rnd.range(0.85, 1.05);
      const expression: Expression = shot === "reaction" ? rnd.pick(["surprised", "angry", "determined"] as const) : rnd.pick(EXPRESSIONS);
      person(lookAt(first), w * rnd.range(0.4, 0.62), h - 135 * scale, scale, rnd.chance(0.5) ? 1 : -1, expression, "bust");
      break;
    }
    case "action": {
      parts.push(scene(doc, rnd, pal, rnd.pick(["focus", "speed"] as const), w, h).svg);
      // The figure on one side, the sound effect in the other half, so neither hides the other.
      const scale = Math.min(h / 420, w / 320);
      const onLeft = rnd.chance(0.5);
      const x = w * (onLeft ? 0.3 : 0.7);
      person(
        lookAt(first),
        x,
        h - 240 * scale,
        scale,
        onLeft ? 1 : -1,
        rnd.pick(["determined", "surprised", "happy"] as const),
        rnd.pick(["wave", "point"] as const),
      );
      const word = deck.deal(SOUND_EFFECTS);
      const half = onLeft ? { left: w * 0.5, right: panel.inner.right } : { left: panel.inner.left, right: w * 0.5 };
      const room = half.right - half.left;
      const size = Math.min(w * 0.2, h * 0.3, (room * 0.85) / Math.max(1, sfxWidth(word, 1)));
      const sx = half.left + size * 0.1 + rnd.range(0, 1) * Math.max(0, room - sfxWidth(word, size) - size * 0.2);
      parts.push(
        sfx(
          rnd,
          word,
          sx,
          rnd.range(size * 1.15, Math.max(size * 1.2, h * 0.45)),
          size,
          pal.mono ? "#ffffff" : rnd.pick([pal.accent, pal.accent2, "#ffe066"]),
          ink,
        ),
      );
      break;
    }
  }
  return { art: parts.join(""), speakers, shot };
}

function letter(rnd: Random, deck: Deck, pal: Palette, drawn: Drawn, panel: Panel): string {
  const { w, h } = panel.box;
  const { left, right } = panel.inner;
  const parts: string[] = [];
  const size = w < 260 ? 19 : 23;
  const maxWidth = Math.min(w * 0.62, 250);
  let nextY = 12;
  // Establishing shots often get a narration box; an empty scene always does.
  if (drawn.shot === "establishing" && (drawn.speakers.length === 0 || rnd.chance(0.6))) {
    const box = caption(
      deck.deal(CAPTIONS),
      left + 12,
      12,
      18,
      Math.min((right - left) * 0.6, 320),
      pal.mono ? "#ffffff" : "#fff1b8",
      pal.ink,
    );
    parts.push(box.svg);
    nextY = 12 + box.h + 10;
  }
  const talkers = drawn.shot === "action" ? [] : drawn.speakers.slice(0, drawn.shot === "establishing" ? 1 : 2);
  talkers.forEach((speaker, i) => {
    if (i > 0 && rnd.chance(0.35)) return;
    const kind: BalloonKind =
      drawn.shot === "reaction"
        ? "shout"
        : rnd.weighted([
            ["speech", 8],
            ["thought", 1],
            ["whisper", 1],
            ["shout", 0.6],
          ] as const);
    const text = deck.deal(kind === "shout" ? SHOUTS : kind === "thought" ? THOUGHTS : kind === "whisper" ? WHISPERS : DIALOGUE);
    // Lay the balloon out once to learn its size, then place it inside the panel, above the speaker.
    const probe = balloon(rnd, { text, at: { x: 0, y: 0 }, size, maxWidth, kind, ink: pal.ink });
    const cx = Math.min(Math.max(speaker.head.x + (i === 0 ? -20 : 20), left + probe.rx + 8), right - probe.rx - 8);
    const cy = Math.max(nextY + probe.ry + 4, Math.min(speaker.head.y - 120 * speaker.scale - probe.ry, h * 0.45));
    const tail = { x: speaker.head.x, y: speaker.head.y - 62 * speaker.scale };
    // A later balloon that would cover its speaker's face is left out (a silent beat).
    if (i > 0 && cy + probe.ry > speaker.head.y - 30 * speaker.scale) return;
    const shape = balloon(rnd, { text, at: { x: cx, y: cy }, size, maxWidth, kind, tail: tail.y > cy ? tail : undefined, ink: pal.ink });
    parts.push(shape.svg);
    nextY = cy + shape.ry * 0.6;
  });
  return parts.join("");
}

/** One comic page: 3 to 6 panels with scenes, the series' cast, balloons and a page number. */
export function comicPage(spec: PageSpec): string {
  const { style } = spec;
  const rnd = randomFor("page", style.key, spec.chapter, spec.page);
  const doc = new SvgDoc(PAGE_WIDTH, PAGE_HEIGHT);
  const pal = rnd.pick(style.palettes);
  const cast = style.mono ? style.cast.map((look) => monoLook(look, rnd)) : style.cast;
  const body: string[] = [`<rect width="${PAGE_WIDTH}" height="${PAGE_HEIGHT}" fill="${pal.paper}"/>`];
  const deck = new Deck(rnd);
  let actionUsed = false;
  for (const panel of layout(rnd)) {
    const shot = pickShot(rnd, panel.box, actionUsed);
    actionUsed ||= shot === "action";
    const drawn = drawShot(doc, rnd, deck, pal, cast, style.settings, shot, panel);
    const clip = doc.clip(`<polygon points="${points(panel.poly)}"/>`);
    body.push(
      `<g clip-path="${clip}"><g transform="translate(${n(panel.box.x)},${n(panel.box.y)})">${drawn.art}${letter(rnd, deck, pal, drawn, panel)}</g></g>`,
      `<polygon points="${points(panel.poly)}" fill="none" stroke="${pal.ink}" stroke-width="5" stroke-linejoin="miter"/>`,
    );
  }
  const footerY = PAGE_HEIGHT - FOOTER / 2 + 6;
  body.push(
    `<text x="${MARGIN}" y="${footerY}" font-size="15" font-family="Liberation Sans Narrow" font-weight="bold" letter-spacing="2" fill="${lighten(pal.ink, 0.45)}">${esc(style.title.toUpperCase())} · CH. ${spec.chapter}</text>`,
    `<text x="${PAGE_WIDTH - MARGIN}" y="${footerY}" text-anchor="end" font-size="20" font-family="DejaVu Sans" font-weight="bold" fill="${pal.ink}">${spec.page}</text>`,
  );
  return doc.render(body.join(""));
}
