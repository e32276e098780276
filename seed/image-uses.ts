// The structured image uses of seeded content, as the app's writes record them (`useImages`, server/images/own-images.ts):
// a deletion releases, and a removal withdraws, the images of what it takes (docs/decisions/018, 025). The seeds embed no
// images in text, so these columns are every use.

/** [ImageUse.userType, table, image column, the using row's id column]. */
export const IMAGE_USE_COLUMNS = [
  ["user", "User", "profileImageId", "id"],
  ["user", "User", "profileBannerId", "id"],
  ["hub", "Hub", "profileImageId", "id"],
  ["hub", "Hub", "profileBannerId", "id"],
  ["series", "Series", "profileImageId", "id"],
  ["series", "Series", "profileBannerId", "id"],
  ["chapter", "Chapter", "coverId", "id"],
  ["chapter", "ChapterPage", "imageId", "chapterId"],
] as const;
