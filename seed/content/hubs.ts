/**
 * The demo hubs. `members` is how many people join (the creator included); it is deliberately
 * unrelated to the creation order and to the number of posts, so "top hubs" differs from "newest".
 */
export interface DemoHub {
  name: string;
  description: string;
  owner: string;
  createdDaysAgo: number;
  members: number;
}

export const DEMO_HUBS: readonly DemoHub[] = [
  {
    name: "Ink & Brushes",
    description:
      "Traditional inking: brush pens, dip nibs, sumi ink, paper that survives a wet wash. Share tools, process shots and the disasters that taught you something.",
    owner: "inkwell_ren",
    createdDaysAgo: 190,
    members: 17,
  },
  {
    name: "Manga Sketch Club",
    description: "Daily sketches, gesture practice and page thumbnails in a manga style. No polish required, just keep the pencil moving.",
    owner: "demo",
    createdDaysAgo: 184,
    members: 14,
  },
  {
    name: "Webcomic Dev Corner",
    description:
      "Building your own comic site: readers, RSS, image pipelines, accessibility and the scripts that save you hours on every update.",
    owner: "panelpusher",
    createdDaysAgo: 172,
    members: 8,
  },
  {
    name: "Panel Flow Workshop",
    description: "Storytelling between the panels: pacing, page turns, camera angles and making the reader's eye go where you want.",
    owner: "mika_draws",
    createdDaysAgo: 163,
    members: 11,
  },
  {
    name: "Lettering Lab",
    description: "Balloons, tails, fonts, SFX and the craft of making words sit on a page. Hand lettering and digital both welcome.",
    owner: "lettering_lou",
    createdDaysAgo: 150,
    members: 6,
  },
  {
    name: "Color Theory Café",
    description: "Palettes, flats, lighting and mood. Bring a page you want to recolour and we will argue about it over coffee.",
    owner: "chromatic_ada",
    createdDaysAgo: 141,
    members: 12,
  },
  {
    name: "Indie Press & Zines",
    description:
      "Printing, binding, risograph, conventions and selling your comics in person. From eight-page minis to perfect-bound volumes.",
    owner: "zine_queen_bea",
    createdDaysAgo: 128,
    members: 5,
  },
  {
    name: "Character Design Den",
    description: "Turnarounds, silhouettes, expression sheets and costume design. Post your cast and tell us who they are.",
    owner: "demo",
    createdDaysAgo: 117,
    members: 15,
  },
  {
    name: "Background Builders",
    description: "Perspective, environments and the buildings nobody wants to draw. Tips, references and 3D-assisted workflows.",
    owner: "sora_paints",
    createdDaysAgo: 96,
    members: 7,
  },
  {
    name: "Critique Circle",
    description:
      "Ask for honest, kind, specific feedback on pages and covers. Say what kind of critique you want; give two for every one you ask.",
    owner: "bluepencil_june",
    createdDaysAgo: 74,
    members: 9,
  },
  {
    name: "Fan Art Gallery",
    description: "Fan art and credited reposts of the series on this site. Always link the original creator and the series page.",
    owner: "halftone_hal",
    createdDaysAgo: 52,
    members: 19,
  },
  {
    name: "Weekly Art Challenge",
    description: "A new prompt every Monday, a gallery every Sunday. Any medium, any skill level; the only rule is to finish something.",
    owner: "screentone_suki",
    createdDaysAgo: 23,
    members: 13,
  },
];
