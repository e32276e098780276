import type { Random } from "../random.ts";

const OPENERS = [
  "Thank you for reading! This one took longer than planned, mostly because I redrew page two three times.",
  "This chapter is the one I have been looking forward to drawing since the very first sketch.",
  "A quieter chapter this time. I wanted to give everyone a moment to breathe before what comes next.",
  "Fun fact: the background on the first page is based on a real place I visited last summer.",
  "I tried a new brush for the shading in this chapter. Let me know if you can spot the difference!",
  "Short chapter, big moment. I hope the last page lands the way I imagined it.",
];

const TOOLS = [
  "Pentel Pocket Brush, G-nib, Bristol board",
  "Clip Studio Paint, a custom G-pen brush",
  "Pencil thumbnails, digital inks, screentone in Clip Studio",
  "Krita with a textured ink brush",
  "Sumi ink and a round brush, scanned at 600 dpi",
  "Procreate on an iPad, exported at 300 dpi",
];

const SOUNDTRACKS = [
  "rainy lo-fi playlists",
  "the same film score on repeat",
  "sea shanties, honestly",
  "old city pop records",
  "a podcast about lighthouses",
  "silence and a ticking clock",
];

const CLOSERS = [
  "Questions about the process? Ask me in [Ink & Brushes](/hubs/Ink%20%26%20Brushes).",
  "Thumbnails for this chapter are up in [Manga Sketch Club](/hubs/Manga%20Sketch%20Club).",
  "Fan art is always welcome in the [Fan Art Gallery](/hubs/Fan%20Art%20Gallery). Please credit and link back!",
  "If you spot a typo in the lettering, tell me in the comments and I will fix it.",
  "See you in two weeks!",
];

/** The artist's notes under a chapter: a short markdown text with the tools used. */
export function chapterNotes(rnd: Random, series: string, number: number, pages: number): string {
  return [
    `## Notes on chapter ${number}`,
    "",
    `${rnd.pick(OPENERS)}`,
    "",
    `- **Pages:** ${pages}`,
    `- **Tools:** ${rnd.pick(TOOLS)}`,
    `- **Soundtrack while drawing:** ${rnd.pick(SOUNDTRACKS)}`,
    "",
    `${rnd.pick(CLOSERS)} Thanks for following *${series}*.`,
  ].join("\n");
}
