import { nameKey } from "../server/rules/text.ts";
import type { Random } from "./random.ts";

/**
 * Names and texts for the large benchmark set: varied enough that hub and series search finds
 * different amounts for different words, cheap enough to make a million of.
 */

const ADJECTIVES = [
  "Midnight",
  "Inky",
  "Paper",
  "Neon",
  "Quiet",
  "Rainy",
  "Golden",
  "Crimson",
  "Silver",
  "Wandering",
  "Sleepy",
  "Electric",
  "Velvet",
  "Hidden",
  "Lucky",
  "Wild",
  "Tiny",
  "Grand",
  "Little",
  "Broken",
  "Clockwork",
  "Starlit",
  "Foggy",
  "Salty",
  "Sunny",
  "Frozen",
  "Hollow",
  "Bright",
  "Lazy",
  "Secret",
  "Cosmic",
  "Rusty",
  "Gentle",
  "Brave",
  "Dusty",
  "Lunar",
  "Scarlet",
  "Emerald",
  "Copper",
  "Ghostly",
  "Wooden",
  "Urban",
  "Northern",
  "Southern",
  "Curious",
  "Restless",
  "Crooked",
  "Humble",
  "Savage",
  "Shiny",
  "Misty",
  "Rolling",
  "Fading",
  "Burning",
  "Drifting",
  "Painted",
  "Sketchy",
  "Bold",
  "Ancient",
];

const NOUNS = [
  "Ink",
  "Brush",
  "Panel",
  "Pencil",
  "Lantern",
  "Moth",
  "Tiger",
  "Fox",
  "Raven",
  "Harbour",
  "Orchard",
  "Diner",
  "Comet",
  "Crown",
  "Knight",
  "Ferry",
  "Tanuki",
  "Garden",
  "Tower",
  "River",
  "Forest",
  "Engine",
  "Robot",
  "Dragon",
  "Whale",
  "Kite",
  "Bridge",
  "Market",
  "Library",
  "Lighthouse",
  "Station",
  "Rooftop",
  "Alley",
  "Circus",
  "Island",
  "Canyon",
  "Meadow",
  "Comic",
  "Manga",
  "Zine",
  "Sketch",
  "Doodle",
  "Page",
  "Gutter",
  "Balloon",
  "Nib",
  "Quill",
  "Palette",
  "Canvas",
  "Storm",
  "Ember",
  "Shadow",
  "Mirror",
  "Compass",
  "Atlas",
  "Signal",
  "Echo",
  "Petal",
  "Thunder",
  "Cloud",
];

const HUB_KINDS = [
  "Club",
  "Collective",
  "Circle",
  "Guild",
  "Lab",
  "Corner",
  "Society",
  "Workshop",
  "Hub",
  "Café",
  "Den",
  "Studio",
  "Academy",
  "Gallery",
  "Forum",
  "Crew",
  "League",
  "Lounge",
  "Salon",
  "Sketchbook",
  "Exchange",
  "Jam",
  "Dojo",
  "Atelier",
];

const UNICODE_HUBS = [
  "漫画研究会",
  "Café Croquis",
  "Tinta y Pincel",
  "Dessin & Bulles",
  "Quadrinhos Brasil",
  "Fumetti Italiani",
  "Манга клуб",
  "만화 동아리",
  "Bande Dessinée",
  "Çizgi Roman",
];

const SERIES_PATTERNS: ((a: string, n: string, m: string) => string)[] = [
  (a, n) => `The ${a} ${n}`,
  (a, n, m) => `${n} of the ${a} ${m}`,
  (a, n) => `${a} ${n} Chronicles`,
  (_a, n, m) => `${n} & ${m}`,
  (a, n) => `${a} ${n}`,
  (_a, n, m) => `The Last ${n} of ${m} Bay`,
];

const FIRST = [
  "ink",
  "pen",
  "paper",
  "panel",
  "sketch",
  "doodle",
  "tone",
  "nib",
  "comic",
  "manga",
  "zine",
  "page",
  "art",
  "draw",
  "kite",
  "moth",
  "fox",
  "star",
];
const SECOND = [
  "fox",
  "cat",
  "owl",
  "bee",
  "kid",
  "smith",
  "wolf",
  "crow",
  "bear",
  "frog",
  "hawk",
  "mouse",
  "otter",
  "pup",
  "wren",
  "lynx",
];

/** Unique, valid usernames (3 to 30 of letters, digits, underscore). */
export function username(rnd: Random, index: number): string {
  return `${rnd.pick(FIRST)}_${rnd.pick(SECOND)}${index}`;
}

/** Hands out names that are unique by their key (case-insensitive), adding a number when one is taken. */
export class UniqueNames {
  private readonly taken = new Set<string>();

  claim(name: string): string {
    let candidate = name;
    for (let i = 2; this.taken.has(nameKey(candidate)); i++) candidate = `${name} ${i}`;
    this.taken.add(nameKey(candidate));
    return candidate;
  }
}

export function hubName(rnd: Random, names: UniqueNames): string {
  if (rnd.chance(0.01)) return names.claim(rnd.pick(UNICODE_HUBS));
  const base = rnd.chance(0.5)
    ? `${rnd.pick(ADJECTIVES)} ${rnd.pick(NOUNS)} ${rnd.pick(HUB_KINDS)}`
    : `${rnd.pick(NOUNS)} ${rnd.pick(HUB_KINDS)}`;
  return names.claim(base);
}

export function seriesName(rnd: Random, names: UniqueNames): string {
  return names.claim(rnd.pick(SERIES_PATTERNS)(rnd.pick(ADJECTIVES), rnd.pick(NOUNS), rnd.pick(NOUNS)));
}

const TOPICS = [
  "inking",
  "panel layouts",
  "lettering",
  "colour flats",
  "screentone",
  "perspective",
  "hands",
  "character turnarounds",
  "thumbnails",
  "brush pens",
  "page pacing",
  "backgrounds",
  "cover design",
  "print runs",
  "webtoon slicing",
];
const TITLE_STARTS = [
  "Help with",
  "My process for",
  "Thoughts on",
  "Tips for",
  "Question about",
  "Weekly thread:",
  "Show and tell:",
  "Struggling with",
  "Resources for",
  "Before and after:",
];
const DESCRIPTIONS = [
  "Looking for feedback from anyone who has tried this.",
  "A short write-up of what worked for me.",
  "Sharing my notes in case they help someone.",
  "Long post, sorry! Summary at the bottom.",
  "",
  "Quick question, probably a silly one.",
];
const BODIES = [
  "## What I tried\n\n- Thumbnails first\n- Then pencils at print size\n- Inks with a `G-pen` brush\n\nStill not happy with the result. Any ideas?",
  "I've been working on this for a week.\n\n1. Scan at 600 dpi\n2. Levels, then threshold\n3. Clean up with the eraser\n\nDoes anyone have a faster workflow?",
  "Short version: **it depends on the paper**.\n\nLonger version: smooth Bristol for nibs, vellum for brushes, and never the cheap stuff for final pages.",
  "Here's the script I use:\n\n```bash\nmagick page.png -resize 1200x page-web.jpg\n```\n\nWorks for every chapter.",
  "| Tool | Verdict |\n|---|---|\n| Brush pen | great |\n| Fineliner | fine |\n\nWhat would you add?",
  "Posting my progress for the week. Feedback welcome, especially on the *pacing* of page 3.",
  "Reminder: credit your references and link the original artist. See the [hub rules](/hubs).",
];

/** A post's title, description and markdown content. */
export function postText(rnd: Random): { title: string; description: string; content: string } {
  const topic = rnd.pick(TOPICS);
  return {
    title: `${rnd.pick(TITLE_STARTS)} ${topic}`,
    description: rnd.pick(DESCRIPTIONS),
    content: `${rnd.pick(BODIES)}\n\n_Topic: ${topic}_`,
  };
}

export const HUB_DESCRIPTIONS = [
  "A place to share work in progress and ask questions.",
  "Weekly prompts, critique threads and a lot of coffee.",
  "For artists and readers who love the medium.",
  "Tips, tools and tutorials.",
  "",
];

export const SERIES_DESCRIPTIONS = [
  "An ongoing webcomic, updated weekly.",
  "A slice-of-life story with a twist.",
  "Black-and-white manga about friendship and bad decisions.",
  "Fantasy adventure across a broken map.",
  "",
];

export const CHAPTER_TITLES = [
  "Beginnings",
  "The Road",
  "A Storm Rolls In",
  "Old Friends",
  "The Map",
  "Night Market",
  "Lost and Found",
  "Crossing",
  "The Letter",
  "Homecoming",
  "Sparks",
  "Echoes",
];

const COMMENT_OPENERS = [
  "Love this!",
  "Great work.",
  "Hmm, not sure about this one.",
  "This made my day.",
  "Finally!",
  "Thanks for sharing.",
  "Same here.",
  "Interesting take.",
  "Wow.",
  "Agreed.",
];
const COMMENT_BODIES = [
  "The panel layout on the second page is really clever.",
  "I tried the same brush settings and it worked for me too.",
  "Could you share which paper you used?",
  "The pacing in the middle felt a bit rushed to me.",
  "That last page gave me chills.",
  "Bookmarking this for later.",
  "The colours are gorgeous, especially the night scenes.",
  "I have a question about the lettering: which font is that?",
  "Can't wait for the next one.",
  "This is exactly what I needed today, thank you.",
  "",
];

/** A comment's text (markdown, short). */
export function commentText(rnd: Random): string {
  const body = rnd.pick(COMMENT_BODIES);
  return body ? `${rnd.pick(COMMENT_OPENERS)} ${body}` : rnd.pick(COMMENT_OPENERS);
}
