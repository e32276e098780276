import { z } from "zod";

/** The answer of a deletion (docs/api.md §15): what went; everything inside it went too. */
export const Deleted = z.object({
  type: z.enum(["post", "chapter", "series", "hub", "user"]),
  id: z.number().int().positive(),
  deleted: z.literal(true),
});
export type Deleted = z.infer<typeof Deleted>;

/** DELETE /user/{id}: the account's password, checked as a password change checks it (docs/api.md "Deleting an account"). */
export const AccountDeletionBody = z.object({
  password: z.string({ error: "Password is required" }).min(1, "Password is required").max(1000, "Password is incorrect"),
});
