import { z } from "zod";
import type { Caller } from "../http/auth.ts";
import { endpointsFor } from "../http/endpoint.ts";
import { AccountDeletionBody, Deleted } from "../rules/deletion.ts";
import { idParam } from "../rules/text.ts";
import type { Services } from "../services.ts";

const endpoint = endpointsFor<Services>();

/** What differs between the deletion endpoints: where, how it is documented, and which deletion runs. */
interface DeletionRoute<P extends z.ZodType> {
  path: string;
  tag: string;
  summary: string;
  params: P;
  remove: (params: z.output<P>, user: Caller, deps: Services) => Promise<Deleted>;
}

// Every deletion is signed in, answers what went, and is refused (403) or finds nothing (404) the same way.
const deletionEndpoint = <P extends z.ZodType>({ remove, ...route }: DeletionRoute<P>) =>
  endpoint({
    method: "delete",
    ...route,
    auth: "required",
    response: Deleted,
    errors: [403, 404],
    // `params` is always there (the schema is given): the declaration's type cannot tell that of a generic one.
    handle: ({ params, user, deps }) => remove(params as z.output<P>, user, deps),
  });

// docs/api.md §15: each answers 404 afterwards, with everything inside it (docs/api.md, "Deleting").
const contentDeletions = [
  deletionEndpoint({
    path: "/hub-posts/{id}",
    tag: "Posts",
    summary: "Delete a post with its comments and likes (its author, a moderator of its hub, an admin)",
    params: z.object({ id: idParam("Post id") }),
    remove: ({ id }, user, deps) => deps.deletion.deletePost(id, user),
  }),
  deletionEndpoint({
    path: "/series/{name}/{chapterNumber}",
    tag: "Chapters",
    summary: "Delete a chapter with its pages, comments and likes (the series' author, an admin)",
    params: z.object({ name: z.string(), chapterNumber: idParam("Chapter number") }),
    remove: ({ name, chapterNumber }, user, deps) => deps.deletion.deleteChapter(name, chapterNumber, user),
  }),
  deletionEndpoint({
    path: "/series/{id}",
    tag: "Series",
    summary: "Delete a series with its chapters, their comments, likes and follows (its author, an admin)",
    params: z.object({ id: idParam("Series id") }),
    remove: ({ id }, user, deps) => deps.deletion.deleteSeries(id, user),
  }),
  deletionEndpoint({
    path: "/hubs/{id}",
    tag: "Hubs",
    summary: "Delete a hub with its posts, their comments and likes, and its memberships (its creator, an admin)",
    params: z.object({ id: idParam("Hub id") }),
    remove: ({ id }, user, deps) => deps.deletion.deleteHub(id, user),
  }),
];

/** DELETE /user/{id} (docs/api.md "Deleting an account"): the owner only, with the password; what happens to what: docs/api.md. */
const accountDeletion = endpoint({
  method: "delete",
  path: "/user/{id}",
  tag: "Users",
  summary:
    "Delete your account with your password: its series, the hubs only it posts in, its posts, likes, follows and images go; its comments that have replies stay without an author; its other hubs pass on",
  auth: "required",
  params: z.object({ id: idParam("User id") }),
  body: AccountDeletionBody,
  response: Deleted,
  rateLimited: true,
  errors: [403, 404, 409],
  handle: ({ params, body, user, deps, req }) =>
    deps.accountDeletion.deleteAccount(params.id, body.password, user, { address: req.ip ?? "unknown" }),
});

export const deletionEndpoints = [...contentDeletions, accountDeletion];
