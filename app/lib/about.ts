// The About text: the full page (/about) and its preview in the footer of /, /home, /login and /register.
export const ABOUT = {
  mission:
    "Inkwell is a home for comics, manga, webcomics and fan-art: a place where artists publish their series chapter by chapter, gather readers in hubs, and grow a community around their work.",
  ownership:
    "Creators keep ownership of everything they publish. Posting here gives Inkwell no rights over your work beyond showing it on the site, and you can take it down whenever you like.",
  whatToPublish:
    "Publish your own comics, manga, webcomics and fan-art, and reposts of other artists' work when they are clearly credited. Hubs are for discussion, sketches, works in progress and art contests.",
  contests: "Artists can also join art contests run in hubs: themed challenges where the community votes with its likes.",
} as const;

/** The part of the About text the footer previews. */
export type AboutPreview = Pick<typeof ABOUT, "mission" | "ownership" | "whatToPublish">;
