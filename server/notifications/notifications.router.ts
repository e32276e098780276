import { endpointsFor } from "../http/endpoint.ts";
import { toPaging } from "../rules/paging.ts";
import { NotificationsQuery, ReadNotificationsBody } from "../rules/notification.ts";
import { Notification, pageSchema, UnreadCount } from "../rules/api-responses.ts";
import type { Services } from "../services.ts";

const endpoint = endpointsFor<Services>();

export const notificationEndpoints = [
  endpoint({
    method: "get",
    path: "/me/notifications",
    tag: "Notifications",
    summary: "The caller's notifications, newest first (unread=true: only the unread ones)",
    auth: "required",
    query: NotificationsQuery,
    response: pageSchema(Notification),
    errors: [],
    handle: ({ query, user, deps }) => deps.notifications.list(user.id, query.unread === "true", toPaging(query)),
  }),
  endpoint({
    method: "get",
    path: "/me/notifications/unread-count",
    tag: "Notifications",
    summary: "How many of the caller's notifications are unread",
    auth: "required",
    response: UnreadCount,
    errors: [],
    handle: ({ user, deps }) => deps.notifications.unreadCount(user.id),
  }),
  endpoint({
    method: "post",
    path: "/me/notifications/read",
    tag: "Notifications",
    summary: "Mark notifications read: { ids } (the caller's own; others are ignored) or { all: true }; answers the unread count",
    auth: "required",
    body: ReadNotificationsBody,
    response: UnreadCount,
    reportsChanges: true,
    errors: [],
    handle: ({ body, user, deps }) => deps.notifications.markRead(user.id, body),
  }),
];
