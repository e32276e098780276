import { nameKey } from "../rules/text.ts";
import type { ImageRef } from "../images/image-refs.ts";

/** What hubs and series share on create and edit: a unique name, a description, a logo and a banner. */
export interface NamedEntityInput {
  name: string;
  description?: string | null;
  profileImageId?: number | null;
  profileBannerId?: number | null;
}

/** The logo and banner, as image references that must belong to the editor. */
export const logoAndBanner = (input: NamedEntityInput): ImageRef[] => [
  { field: "profileImageId", label: "Logo", id: input.profileImageId },
  { field: "profileBannerId", label: "Banner", id: input.profileBannerId },
];

/** The columns an edit writes: the name always; description and images when given (null clears them). */
export function namedEntityChanges(input: NamedEntityInput) {
  return {
    name: input.name,
    nameKey: nameKey(input.name),
    ...(input.description !== undefined ? { description: input.description ?? "" } : {}),
    ...(input.profileImageId !== undefined ? { profileImageId: input.profileImageId } : {}),
    ...(input.profileBannerId !== undefined ? { profileBannerId: input.profileBannerId } : {}),
  };
}
