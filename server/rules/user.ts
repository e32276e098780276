import { z } from "zod";
import { currentPassword, email } from "./auth.ts";
import { imageRef } from "./text.ts";

export const UserEditBody = z
  .object({
    profileImageID: imageRef("Avatar"),
    profileBannerID: imageRef("Banner"),
    /** A new email: only with the right current password (docs/api.md §12). */
    email: email.optional(),
    currentPassword: currentPassword.optional(),
    /** Mature series in the user's lists (docs/api.md "Series metadata and browsing"); absent keeps the setting. */
    showMature: z.boolean({ error: "showMature must be true or false" }).optional(),
  })
  .refine((body) => body.email === undefined || body.currentPassword !== undefined, {
    message: "Current password is required to change your email",
    path: ["currentPassword"],
  });
export type UserEditInput = z.infer<typeof UserEditBody>;
