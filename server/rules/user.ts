import { z } from "zod";
import { imageRef } from "./text.ts";

export const UserEditBody = z.object({
  profileImageID: imageRef("Avatar"),
  profileBannerID: imageRef("Banner"),
});
export type UserEditInput = z.infer<typeof UserEditBody>;
