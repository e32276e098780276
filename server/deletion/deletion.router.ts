import { z } from "zod";
import { endpointsFor } from "../http/endpoint.ts";
import { Deleted } from "../rules/deletion.ts";
import { idParam } from "../rules/text.ts";
import type { Services } from "../services.ts";

const endpoint = endpointsFor<Services>();

// CONTRACT.md 12: each answers 404 afterwards, with everything inside it (docs/api.md, "Deleting").
export const deletionEndpoints = [
  endpoint({
    method: "delete",
    path: "/hub-posts/{id}",
    tag: "Posts",
    summary: "Delete a post with its comments and likes (its author, a moderator of its hub, an admin)",
    auth: "required",
    params: z.object({ id: idParam("Post id") }),
    response: Deleted,
    errors: [403, 404],
    handle: ({ params, user, deps }) => deps.deletion.deletePost(params.id, user),
  }),
  endpoint({
    method: "delete",
    path: "/series/{name}/{chapterNumber}",
    tag: "Chapters",
    summary: "Delete a chapter with its pages, comments and likes (the series' author, an admin)",
    auth: "required",
    params: z.object({ name: z.string(), chapterNumber: idParam("Chapter number") }),
    response: Deleted,
    errors: [403, 404],
    handle: async ({ params, user, deps }) =>
      deps.deletion.deleteChapter(await deps.series.resolveRef(params.name, "Chapter not found"), params.chapterNumber, user),
  }),
  endpoint({
    method: "delete",
    path: "/series/{id}",
    tag: "Series",
    summary: "Delete a series with its chapters, their comments, likes and follows (its author, an admin)",
    auth: "required",
    params: z.object({ id: idParam("Series id") }),
    response: Deleted,
    errors: [403, 404],
    handle: ({ params, user, deps }) => deps.deletion.deleteSeries(params.id, user),
  }),
  endpoint({
    method: "delete",
    path: "/hubs/{id}",
    tag: "Hubs",
    summary: "Delete a hub with its posts, their comments and likes, and its memberships (its creator, an admin)",
    auth: "required",
    params: z.object({ id: idParam("Hub id") }),
    response: Deleted,
    errors: [403, 404],
    handle: ({ params, user, deps }) => deps.deletion.deleteHub(params.id, user),
  }),
];
