import { z } from "zod";
import { endpointsFor } from "../http/endpoint.ts";
import { PagingQuery, toPaging } from "../rules/paging.ts";
import { ContinueReading, ProgressBody, ProgressState } from "../rules/progress.ts";
import { pageSchema } from "../rules/api-responses.ts";
import { idParam } from "../rules/text.ts";
import type { Services } from "../services.ts";

const endpoint = endpointsFor<Services>();
const SeriesId = z.object({ seriesId: idParam("Series id") });

/** Reading progress (docs/api.md "Reading progress"): the caller's own, so every call acts for the token's user. */
export const progressEndpoints = [
  endpoint({
    method: "get",
    path: "/me/progress",
    tag: "Reading progress",
    summary:
      "Continue reading: the series the caller is reading, most recently read first (ties by series id), each with the chapter and page " +
      "in progress and how many chapters after it are not removed (unreadChapters)",
    auth: "required",
    query: PagingQuery,
    response: pageSchema(ContinueReading),
    errors: [],
    handle: ({ query, user, deps }) => deps.progress.list(user, toPaging(query)),
  }),
  endpoint({
    method: "get",
    path: "/me/progress/{seriesId}",
    tag: "Reading progress",
    summary: "Where the caller is in one series (null: not started)",
    auth: "required",
    params: SeriesId,
    response: z.object({ progress: ProgressState.nullable() }),
    errors: [404],
    handle: ({ params, user, deps }) => deps.progress.get(user.id, params.seriesId),
  }),
  endpoint({
    method: "put",
    path: "/me/progress/{seriesId}",
    tag: "Reading progress",
    summary:
      "Save where the caller is in a series (idempotent; the latest write wins, also an older chapter after a newer one). The chapter " +
      "counts as read when the page is its last; the chapter in progress before counts as read when this one is later",
    auth: "required",
    params: SeriesId,
    body: ProgressBody,
    response: ProgressState,
    errors: [404],
    // Progress shows only in answers read for the caller (readByMe, /me/progress), which the response cache never keeps.
    keepsCachedAnswers: true,
    handle: ({ params, body, user, deps }) => deps.progress.save(user.id, params.seriesId, body),
  }),
];
