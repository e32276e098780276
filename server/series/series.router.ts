import { z } from "zod";
import { endpointsFor } from "../http/endpoint.ts";
import { PagingQuery, SearchQuery, toPaging } from "../rules/paging.ts";
import { pageSchema, Series, SeriesDetail } from "../rules/responses.ts";
import { SeriesBody, SeriesEditBody } from "../rules/series.ts";
import { idParam } from "../rules/text.ts";
import type { Services } from "../services.ts";

const endpoint = endpointsFor<Services>();
const SeriesId = z.object({ id: idParam("Series id") });

// Order matters: fixed paths before /series/{name}.
export const seriesEndpoints = [
  endpoint({
    method: "get",
    path: "/series",
    tag: "Series",
    summary: "All series, newest first",
    auth: "none",
    query: PagingQuery,
    response: pageSchema(Series),
    errors: [],
    handle: async ({ query, deps }) => deps.redaction.seriesPage(await deps.series.listNewest(toPaging(query)), null),
  }),
  endpoint({
    method: "get",
    path: "/series/top",
    tag: "Series",
    summary: "Series with the most followers",
    auth: "none",
    query: PagingQuery,
    response: pageSchema(Series),
    errors: [],
    handle: async ({ query, deps }) => deps.redaction.seriesPage(await deps.series.listTop(toPaging(query)), null),
  }),
  endpoint({
    method: "get",
    path: "/series/search",
    tag: "Series",
    summary: "Series whose name contains the text (case-insensitive), newest first",
    auth: "none",
    query: SearchQuery,
    response: pageSchema(Series),
    errors: [],
    handle: async ({ query, deps }) => deps.redaction.seriesPage(await deps.series.search(query.name, toPaging(query)), null),
  }),
  endpoint({
    method: "get",
    path: "/series/id/{id}",
    tag: "Series",
    summary: "A series by id",
    auth: "none",
    params: SeriesId,
    response: SeriesDetail,
    errors: [404],
    handle: async ({ params, user, deps }) => deps.redaction.oneSeries(await deps.series.getById(params.id, user?.id), user),
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
    errors: [409],
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
    errors: [404],
    handle: async ({ params, user, deps }) => deps.redaction.oneSeries(await deps.series.getByNameOrId(params.name, user?.id), user),
  }),
];
