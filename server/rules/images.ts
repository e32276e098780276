// Image facts the API and the web app share. Pure (no Node imports): browser code imports it too.

/** Widths served by `GET /images/{id}?w=`: a request snaps up to the next one, so renditions stay few. */
export const RENDITION_WIDTHS = [160, 320, 480, 640, 800, 960, 1080, 1280, 1600, 1920] as const;
