import { z } from "zod";
import { memoryAttemptCounter, type AttemptCounters } from "../http/attempt-counter.ts";
import { endpointsFor } from "../http/endpoint.ts";
import { FollowState, Hub, MemberState, Series, User } from "../rules/api-responses.ts";
import { idParam } from "../rules/text.ts";
import { AccessToken, PasswordChangeBody } from "../rules/auth.ts";
import { UserEditBody } from "../rules/user.ts";
import type { Services } from "../services.ts";
import type { Caller } from "../http/auth.ts";
import { scopeOf } from "../series/series.service.ts";
import { DEFAULT_EXPORT_RATE_PER_HOUR, limitExportRate } from "./export-limit.ts";

const matureVariant = (user: Caller | null, deps: Services) => deps.series.matureVariant(user);

const endpoint = endpointsFor<Services>();
const UserId = z.object({ id: idParam("User id") });

/** The client's address as the throttles count it (as in auth.router.ts). */
const originOf = (req: { ip?: string }) => ({ address: req.ip ?? "unknown" });

const userList = <T extends z.ZodType>(
  list: string,
  item: T,
  summary: string,
  load: (deps: Services, userId: number, variant: string) => z.input<T>[] | Promise<z.input<T>[]>,
  /** The series lists' mature rule (docs/api.md "Series metadata and browsing"), as in series.router.ts. */
  variant?: (user: Caller | null, deps: Services) => Promise<string>,
) =>
  endpoint({
    method: "get",
    path: `/user/{id}/${list}`,
    tag: "Users",
    summary,
    auth: "none",
    params: UserId,
    response: z.array(item),
    errors: [404],
    ...(variant ? { variant } : {}),
    handle: ({ params, variant, deps }) => load(deps, params.id, variant),
  });

const membership = (method: "post" | "delete") =>
  endpoint({
    method,
    path: "/user/{userId}/member-hubs/{hubId}",
    tag: "Users",
    summary: method === "post" ? "Join a hub (idempotent)" : "Leave a hub (idempotent)",
    auth: "required",
    params: z.object({ userId: idParam("User id"), hubId: idParam("Hub id") }),
    response: MemberState,
    reportsChanges: true,
    errors: [403, 404],
    // POST and DELETE under /user/{userId}/... act for the token's user only (docs/api.md §5): the service checks.
    handle: ({ params, user, deps }) =>
      method === "post"
        ? deps.membership.join(user, params.userId, params.hubId)
        : deps.membership.leave(user, params.userId, params.hubId),
  });

const follow = (method: "post" | "delete") =>
  endpoint({
    method,
    path: "/user/{userId}/followed-series/{seriesId}",
    tag: "Users",
    summary: method === "post" ? "Follow a series (idempotent)" : "Unfollow a series (idempotent)",
    auth: "required",
    params: z.object({ userId: idParam("User id"), seriesId: idParam("Series id") }),
    response: FollowState,
    reportsChanges: true,
    errors: [403, 404],
    handle: ({ params, user, deps }) =>
      method === "post"
        ? deps.follows.follow(user, params.userId, params.seriesId)
        : deps.follows.unfollow(user, params.userId, params.seriesId),
  });

export interface UserEndpointConfig {
  /** Data exports per account per hour (docs/api.md §12); 0 turns the limit off. */
  exportRatePerHour?: number;
}

export const userEndpoints = (
  { exportRatePerHour = DEFAULT_EXPORT_RATE_PER_HOUR }: UserEndpointConfig = {},
  counters: AttemptCounters = memoryAttemptCounter,
) => [
  endpoint({
    method: "get",
    path: "/user/id/{id}",
    tag: "Users",
    summary: "A user by id",
    auth: "none",
    params: UserId,
    response: User,
    errors: [404],
    handle: ({ params, user, deps }) => deps.users.getById(params.id, user?.id, user?.isAdmin),
  }),
  endpoint({
    method: "get",
    path: "/user/{username}",
    tag: "Users",
    summary: "A user by username (case-insensitive)",
    auth: "none",
    params: z.object({ username: z.string() }),
    response: User,
    errors: [404],
    handle: ({ params, user, deps }) => deps.users.getByUsername(params.username, user?.id, user?.isAdmin),
  }),
  endpoint({
    method: "put",
    path: "/user/{id}",
    tag: "Users",
    summary:
      "Set your own avatar and banner, whether your lists show mature series (`showMature`), and your email (with `currentPassword`; a new address takes effect once verified: `pendingEmail` until then)",
    auth: "required",
    params: UserId,
    body: UserEditBody,
    response: User,
    reportsChanges: true,
    rateLimited: true,
    errors: [403, 404, 409],
    handle: ({ params, body, user, deps, req }) =>
      deps.users.update(params.id, body, user.id, () => deps.auth.confirmPassword(user, body.currentPassword ?? "", originOf(req))),
  }),
  endpoint({
    method: "put",
    path: "/user/{id}/password",
    tag: "Users",
    summary: "Change your own password: every other session of yours ends; the answer is a new token",
    auth: "required",
    params: UserId,
    body: PasswordChangeBody,
    response: AccessToken,
    rateLimited: true,
    errors: [403],
    handle: ({ params, body, user, deps, req }) => deps.auth.changePassword(params.id, user, body, originOf(req)),
  }),
  endpoint({
    method: "get",
    path: "/user/{id}/export",
    tag: "Users",
    summary: `Your own data as a zip: account.json and the original of every image you uploaded${exportRatePerHour > 0 ? ` (at most ${exportRatePerHour} an hour, else 429)` : ""}`,
    auth: "required",
    params: UserId,
    rateLimited: true,
    before: exportRatePerHour > 0 ? [limitExportRate(counters("export", exportRatePerHour, 3600), exportRatePerHour)] : [],
    response: "binary",
    binaryTypes: ["application/zip"],
    errors: [403, 404],
    handle: async ({ params, user, deps, res }) => {
      const zip = await deps.accountExport.exportAccount(params.id, user.id);
      for (const [name, value] of Object.entries(zip.headers)) res.setHeader(name, value);
      await zip.writeTo(res);
    },
  }),
  userList("member-hubs", Hub, "Hubs the user joined, most recent first", (deps, id) => deps.userLists.memberHubs(id)),
  userList(
    "followed-series",
    Series,
    "Series the user follows, most recent first (mature ones only for callers with showMature on, or their author)",
    (deps, id, variant) => deps.userLists.followedSeries(id, scopeOf(variant)),
    matureVariant,
  ),
  userList(
    "created-series",
    Series,
    "Series the user created, newest first (mature ones only for callers with showMature on, or their author)",
    (deps, id, variant) => deps.userLists.createdSeries(id, scopeOf(variant)),
    matureVariant,
  ),
  userList("created-hubs", Hub, "Hubs the user created, newest first", (deps, id) => deps.userLists.createdHubs(id)),
  membership("post"),
  membership("delete"),
  follow("post"),
  follow("delete"),
];
