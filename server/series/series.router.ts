import { z } from "zod";
import { endpointsFor } from "../http/endpoint.ts";
import { PagingQuery, toPaging } from "../rules/paging.ts";
import { pageSchema, Series, SeriesDetail, TagCount } from "../rules/api-responses.ts";
import { filtersOf, SeriesBody, SeriesEditBody, SeriesListQuery, SeriesSearchQuery, SeriesTopQuery } from "../rules/series.ts";
import { idParam } from "../rules/text.ts";
import type { Services } from "../services.ts";
import type { ViewerFlags } from "../viewer/shared-answers.ts";
import { scopeOf } from "./series.service.ts";

const endpoint = endpointsFor<Services>();
const SeriesId = z.object({ id: idParam("Series id") });
/** `followedByMe`, the caller's own part of a series' detail, otherwise the same for everyone (server/viewer/shared-answers.ts). */
const followFlag: ViewerFlags<Services> = { read: (ids, user, deps) => deps.series.followedFlags(ids, user.id) };

/**
 * The lists' mature rule (docs/api.md "Series metadata and browsing") as the response cache's variant: guests and users without showMature share
 * one answer, users with it another, and an author of a mature series without it their own.
 */
const matureVariant = (user: { id: number; showMature: boolean } | null, deps: Services) => deps.series.matureVariant(user);
const FILTERS =
  "Filters: `tag` (repeatable, all must match), `status`, `rating`. Mature series only for users with showMature on (and their authors)";

// Order matters: fixed paths before /series/{name}.
export const seriesEndpoints = [
  endpoint({
    method: "get",
    path: "/series",
    tag: "Series",
    summary: `All series, newest first or by \`sort\` (new, popular: followers, updated: latest chapter, never-updated last). ${FILTERS}`,
    auth: "none",
    query: SeriesListQuery,
    variant: matureVariant,
    response: pageSchema(Series),
    errors: [],
    handle: ({ query, variant, deps }) => deps.series.listShown(filtersOf(query), query.sort ?? "new", scopeOf(variant), toPaging(query)),
  }),
  endpoint({
    method: "get",
    path: "/series/top",
    tag: "Series",
    summary: `Series with the most followers. ${FILTERS}`,
    auth: "none",
    query: SeriesTopQuery,
    variant: matureVariant,
    response: pageSchema(Series),
    errors: [],
    handle: ({ query, variant, deps }) => deps.series.listShown(filtersOf(query), "popular", scopeOf(variant), toPaging(query)),
  }),
  endpoint({
    method: "get",
    path: "/series/search",
    tag: "Series",
    summary: `Series whose name contains the text (case-insensitive), newest first or by \`sort\`. ${FILTERS}`,
    auth: "none",
    query: SeriesSearchQuery,
    variant: matureVariant,
    response: pageSchema(Series),
    errors: [],
    handle: ({ query, variant, deps }) =>
      deps.series.searchShown(query.name, filtersOf(query), query.sort ?? "new", scopeOf(variant), toPaging(query)),
  }),
  endpoint({
    method: "get",
    path: "/tags",
    tag: "Series",
    summary: "The most used tags with how many live series carry them (those the caller's lists show), ties by name",
    auth: "none",
    query: PagingQuery,
    variant: matureVariant,
    response: pageSchema(TagCount),
    errors: [],
    handle: ({ query, variant, deps }) => deps.series.tags(scopeOf(variant), toPaging(query)),
  }),
  endpoint({
    method: "get",
    path: "/series/id/{id}",
    tag: "Series",
    summary: "A series by id",
    auth: "none",
    params: SeriesId,
    response: SeriesDetail,
    viewerFlags: followFlag,
    errors: [404],
    handle: ({ params, user, deps }) => deps.series.getShownById(params.id, user),
  }),
  endpoint({
    method: "post",
    path: "/series",
    tag: "Series",
    summary: "Create a series",
    auth: "required",
    body: SeriesBody,
    status: 201,
    response: SeriesDetail,
    // 403: REQUIRE_VERIFIED_EMAIL and an unverified address (docs/api.md "Verified email addresses").
    errors: [403, 409],
    handle: ({ body, user, deps }) => deps.series.create(body, user.id),
  }),
  endpoint({
    method: "put",
    path: "/series/{id}",
    tag: "Series",
    summary: "Edit a series (its author only); an absent description, logo or banner is kept, null clears it",
    auth: "required",
    params: SeriesId,
    body: SeriesEditBody,
    response: SeriesDetail,
    errors: [403, 404, 409],
    handle: ({ params, body, user, deps }) => deps.series.update(params.id, body, user.id),
  }),
  endpoint({
    method: "get",
    path: "/series/{name}",
    tag: "Series",
    summary: "A series by name (case-insensitive), or by id when the name is all digits and no series has it",
    auth: "none",
    params: z.object({ name: z.string() }),
    response: SeriesDetail,
    viewerFlags: followFlag,
    errors: [404],
    handle: ({ params, user, deps }) => deps.series.getShownByNameOrId(params.name, user),
  }),
];
