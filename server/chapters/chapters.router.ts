import { z } from "zod";
import { endpointsFor } from "../http/endpoint.ts";
import type { WriteLimits } from "../http/user-rate-limit.ts";
import { ChapterEditBody, NewChapterBody } from "../rules/chapter.ts";
import { PagingQuery, toPaging } from "../rules/paging.ts";
import { Chapter, ChapterSummary, LikeState, pageSchema } from "../rules/api-responses.ts";
import { idParam } from "../rules/text.ts";
import type { Services } from "../services.ts";
import type { ViewerFlags } from "../viewer/shared-answers.ts";
import type { ChapterOrder } from "./chapters.service.ts";

const endpoint = endpointsFor<Services>();
const SeriesName = z.object({ name: z.string() });
const ChapterInSeries = z.object({ name: z.string(), chapterNumber: idParam("Chapter number") });
/** `likedByMe` and `readByMe`, the caller's own part of answers otherwise the same for everyone (server/viewer/shared-answers.ts). */
const chapterFlags: ViewerFlags<Services> = { read: (ids, user, deps) => deps.chapters.ownFlags(ids, user.id) };

const chapterList = (suffix: string, order: ChapterOrder, summary: string) =>
  endpoint({
    method: "get",
    path: `/series/{name}/chapters${suffix}`,
    tag: "Chapters",
    summary,
    auth: "none",
    params: SeriesName,
    query: PagingQuery,
    response: pageSchema(ChapterSummary),
    viewerFlags: chapterFlags,
    errors: [404],
    handle: ({ params, query, user, deps }) => deps.chapters.list(params.name, order, toPaging(query), user),
  });

const chapterLike = (method: "post" | "delete") =>
  endpoint({
    method,
    path: "/series/{name}/{chapterNumber}/like",
    tag: "Chapters",
    summary: method === "post" ? "Like a chapter (idempotent)" : "Remove a like (idempotent)",
    auth: "required",
    params: ChapterInSeries,
    response: LikeState,
    reportsChanges: true,
    errors: [403, 404],
    handle: ({ params, user, deps }) =>
      method === "post"
        ? deps.chapterLikes.like(user.id, params.name, params.chapterNumber)
        : deps.chapterLikes.unlike(user.id, params.name, params.chapterNumber),
  });

/** New chapters are limited per user (docs/api.md "Limits"): each tells every follower. */
export const chapterEndpoints = (limits: Pick<WriteLimits, "chapter">) => [
  chapterList("", "latest", "A series' chapters, highest number first"),
  chapterList("/latest", "latest", "A series' chapters, highest number first (per_page=1 gives the latest)"),
  chapterList("/most-liked", "most-liked", "A series' chapters, most liked first"),
  endpoint({
    method: "post",
    path: "/series/{name}/chapters",
    tag: "Chapters",
    summary: "Publish a chapter (the series' author only); the number is the next free one unless given",
    auth: "required",
    params: SeriesName,
    body: NewChapterBody,
    rateLimited: true,
    before: limits.chapter,
    status: 201,
    response: Chapter,
    errors: [403, 404, 409],
    handle: ({ params, body, user, deps }) => deps.chapters.publish(params.name, body, user.id),
  }),
  endpoint({
    method: "get",
    path: "/series/{name}/{chapterNumber}",
    tag: "Chapters",
    summary: "A chapter with its pages, notes and neighbours",
    auth: "none",
    params: ChapterInSeries,
    response: Chapter,
    viewerFlags: chapterFlags,
    errors: [404],
    handle: ({ params, user, deps }) => deps.chapters.get(params.name, params.chapterNumber, user),
  }),
  endpoint({
    method: "put",
    path: "/series/{name}/{chapterNumber}",
    tag: "Chapters",
    summary:
      "Edit a chapter (the series' author only); an absent description, content, cover or page list is kept; a null cover resets to the first page",
    auth: "required",
    params: ChapterInSeries,
    body: ChapterEditBody,
    response: Chapter,
    errors: [403, 404],
    handle: ({ params, body, user, deps }) => deps.chapters.edit(params.name, params.chapterNumber, body, user.id),
  }),
  chapterLike("post"),
  chapterLike("delete"),
];
