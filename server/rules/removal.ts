// Removal by moderators (CONTRACT.md 13, docs/decisions/018-governance.md): the request and the answer. Pure, so the
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

/** `removed` on every removable thing: null, or why moderators removed it. */
export const Removed = z
  .object({ reason: z.string() })
  .nullable()
  .describe("Removed by moderators: null, or their reason (the content is then empty for all but its author and its moderators)");
export type Removed = z.infer<typeof Removed>;

/** The answer of a removal or a restore: the subject's new state. */
export const RemovalState = z.object({
  subject: RemovalSubject,
  removed: Removed,
});
export type RemovalState = z.infer<typeof RemovalState>;
