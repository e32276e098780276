/** The members of the demo community. `demo` is the documented login (seed/README.md). */

export const DEMO_USERNAME = "demo";
export const DEMO_PASSWORD = "demo1234";

/** The demo's site admin (granted, as `npm run admin -- grant gutterspace` would): README, "Moderating Inkwell". */
export const DEMO_ADMIN = "gutterspace";

/** A moderator the hub's creator added (the demo login's own hub), some days before the seed ran. */
export const DEMO_HUB_MODERATOR = { hub: "Manga Sketch Club", username: "mika_draws", addedDaysAgo: 30 } as const;

/** A report on a comment in that hub, which the moderator looked at and dismissed (the hub's mod log shows it). */
export const DEMO_RESOLVED_REPORT = {
  reporter: "quiet_quill",
  reason: "harassment",
  note: "This reads as a dig at the artist.",
  resolutionReason: "Friendly critique of the panel, not harassment.",
} as const;

export interface DemoUser {
  username: string;
  /** Days before the seed ran that the member joined. */
  joinedDaysAgo: number;
}

export const DEMO_USERS: readonly DemoUser[] = [
  { username: DEMO_USERNAME, joinedDaysAgo: 210 },
  { username: "mika_draws", joinedDaysAgo: 205 },
  { username: "inkwell_ren", joinedDaysAgo: 201 },
  { username: "panelpusher", joinedDaysAgo: 198 },
  { username: "tomo_sketches", joinedDaysAgo: 192 },
  { username: "lettering_lou", joinedDaysAgo: 188 },
  { username: "chromatic_ada", joinedDaysAgo: 181 },
  { username: "zine_queen_bea", joinedDaysAgo: 176 },
  { username: "nib_and_nova", joinedDaysAgo: 170 },
  { username: "sora_paints", joinedDaysAgo: 166 },
  { username: "gutterspace", joinedDaysAgo: 160 },
  { username: "halftone_hal", joinedDaysAgo: 151 },
  { username: "bluepencil_june", joinedDaysAgo: 147 },
  { username: "screentone_suki", joinedDaysAgo: 140 },
  { username: "riverink_omar", joinedDaysAgo: 133 },
  { username: "pagecurl_pete", joinedDaysAgo: 121 },
  { username: "dotgrain_dee", joinedDaysAgo: 109 },
  { username: "paperlantern_li", joinedDaysAgo: 96 },
  { username: "quiet_quill", joinedDaysAgo: 71 },
  { username: "Kestrel_Reads", joinedDaysAgo: 38 },
];
