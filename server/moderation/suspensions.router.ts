import { z } from "zod";
import { endpointsFor } from "../http/endpoint.ts";
import { BanBody, LiftBody, Suspension } from "../rules/bans.ts";
import { idParam } from "../rules/text.ts";
import type { Services } from "../services.ts";

const endpoint = endpointsFor<Services>();
const UserId = z.object({ id: idParam("User id") });

/** Site suspensions by admins (docs/api.md "Bans, suspensions and the mod log"). */
export const suspensionEndpoints = [
  endpoint({
    method: "get",
    path: "/admin/users/{id}/ban",
    tag: "Moderation",
    summary: "Whether the account is suspended, until when and why (admins)",
    auth: "required",
    params: UserId,
    response: Suspension,
    errors: [403, 404],
    handle: ({ params, user: { id, isAdmin }, deps }) => deps.suspensions.get(params.id, { id, isAdmin }),
  }),
  endpoint({
    method: "put",
    path: "/admin/users/{id}/ban",
    tag: "Moderation",
    summary:
      "Suspend an account (admins): its tokens stop working at once and login answers 403 until it ends; days absent: no end. Admins cannot be suspended",
    auth: "required",
    params: UserId,
    body: BanBody,
    response: Suspension,
    errors: [400, 403, 404],
    handle: ({ params, body, user: { id, isAdmin }, deps }) => deps.suspensions.suspend(params.id, body, { id, isAdmin }),
  }),
  endpoint({
    method: "delete",
    path: "/admin/users/{id}/ban",
    tag: "Moderation",
    summary: "Lift an account's suspension (admins); idempotent; an optional reason goes to the mod log",
    auth: "required",
    params: UserId,
    body: LiftBody,
    response: Suspension,
    errors: [403, 404],
    handle: ({ params, body, user: { id, isAdmin }, deps }) => deps.suspensions.lift(params.id, body.reason, { id, isAdmin }),
  }),
];
