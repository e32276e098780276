import { z } from "zod";

/** The answer of a deletion (CONTRACT.md 12): what went; everything inside it went too. */
export const Deleted = z.object({
  type: z.enum(["post", "chapter", "series", "hub"]),
  id: z.number().int().positive(),
  deleted: z.literal(true),
});
export type Deleted = z.infer<typeof Deleted>;
