import { z } from "zod";
import { ProgressState } from "./progress.ts";
import { User } from "./api-responses.ts";

/** The caller's state that every signed-in page of the web app shows or acts on (docs/api.md "The viewer's state"). */
export const ViewerState = z.object({
  user: User.describe("the caller's own user, as GET /user/{username} answers it to them (role, showMature)"),
  unreadCount: z.number().int().nonnegative().describe("unread notifications, as GET /me/notifications/unread-count"),
  reading: ProgressState.nullable().describe(
    "the caller's most recently saved reading position (the first of GET /me/progress, any series); null before any",
  ),
});
export type ViewerState = z.infer<typeof ViewerState>;
