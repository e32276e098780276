// The notification calls' inputs (docs/api.md §11). Pure (no Node imports).
import { z } from "zod";
import { PagingQuery } from "./paging.ts";
import { MAX_ID } from "./text.ts";

export const READ_IDS_MAX = 1000;

/** `unread=true` lists only unread notifications; `false` or absent lists all. */
export const NotificationsQuery = PagingQuery.extend({
  unread: z.enum(["true", "false"], { error: "unread must be true or false" }).optional(),
});

const notificationId = z
  .number({ error: "ids must hold notification ids" })
  .int("ids must hold notification ids")
  .min(1, "ids must hold notification ids")
  .max(MAX_ID, "ids must hold notification ids");

/** `{ ids: [...] }` marks those read, `{ all: true }` every one; a body with neither is refused. */
export const ReadNotificationsBody = z
  .object({
    ids: z
      .array(notificationId, { error: "ids must be a list of notification ids" })
      .max(READ_IDS_MAX, `At most ${READ_IDS_MAX} ids at once`)
      .optional(),
    all: z.boolean({ error: "all must be true or false" }).optional(),
  })
  .refine((body) => body.all === true || body.ids !== undefined, { message: "Send ids or all: true", path: ["body"] });
