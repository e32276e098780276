import { ApiError } from "./api.server.ts";
import { positiveId } from "./ids.ts";
import type { ToggleRun } from "./toggle-action.server.ts";

const setFollow =
  (following: boolean) =>
  async ({ api, session, form }: ToggleRun) => {
    const seriesId = positiveId(form.get("seriesId"));
    if (seriesId === null) throw new ApiError(400, "seriesId is required");
    return api.setFollow(session.user.id, seriesId, following);
  };

/** Follow and unfollow a series, for toggleAction (series page and chapter reader). */
export const followHandlers = { follow: setFollow(true), unfollow: setFollow(false) };

const setChapterLike =
  (liked: boolean) =>
  async ({ api, form }: ToggleRun) => {
    const seriesName = form.get("seriesName");
    const number = positiveId(form.get("chapterNumber"));
    if (typeof seriesName !== "string" || number === null) throw new ApiError(400, "seriesName and chapterNumber are required");
    return api.setChapterLike(seriesName, number, liked);
  };

/** Like and unlike a chapter, for toggleAction (the reader). */
export const chapterLikeHandlers = { like: setChapterLike(true), unlike: setChapterLike(false) };
