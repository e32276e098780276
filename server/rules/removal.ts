// Removal by moderators (docs/api.md "Removal", docs/decisions/018-governance.md): the request and the answer. Pure, so the
// web's confirmation form reads the same messages.
import { z } from "zod";
import { MAX_ID, text } from "./text.ts";

export const REMOVABLE_TYPES = ["post", "comment", "chapter", "series", "hub"] as const;
export type RemovableType = (typeof REMOVABLE_TYPES)[number];

export const REASON_MAX = 500;

export const RemovalReason = text("Reason", {
  required: "A reason is required",
  max: [REASON_MAX, `Reason must be at most ${REASON_MAX} characters`],
});

export const RemovalSubject = z.object({
  type: z.enum(REMOVABLE_TYPES, { error: `Subject type must be one of ${REMOVABLE_TYPES.join(", ")}` }),
  id: z
    .number({ error: "Subject id must be a positive whole number" })
    .int("Subject id must be a positive whole number")
    .min(1, "Subject id must be a positive whole number")
    .max(MAX_ID, "Subject id must be a positive whole number"),
});
export type RemovalSubject = z.infer<typeof RemovalSubject>;

export const RemovalBody = z.object({
  subject: RemovalSubject,
  reason: RemovalReason,
});

/** What a thing can be removed with: the hub of a post, the series of a chapter, the post or chapter of a comment. */
export const REMOVAL_CONTAINERS = ["hub", "series", "post", "chapter"] as const;
export type RemovalContainer = (typeof REMOVAL_CONTAINERS)[number];

/** `removed` on every removable thing: null, or why moderators removed it (or the hub, series, post or chapter it is in). */
export const Removed = z
  .object({
    reason: z.string(),
    container: z
      .enum(REMOVAL_CONTAINERS)
      .optional()
      .describe("Set when the thing itself is not removed but the hub, series, post or chapter it is in is: `reason` is that one's"),
  })
  .nullable()
  .describe("Removed by moderators: null, or their reason (the content is then empty for all but its author and its moderators)");
export type Removed = z.infer<typeof Removed>;

/** The answer of a removal or a restore: the subject's new state. */
export const RemovalState = z.object({
  subject: RemovalSubject,
  removed: Removed,
});
export type RemovalState = z.infer<typeof RemovalState>;
