// The API calls of blocks (docs/api.md "Blocks") on the typed client's `call`: the profile's button, its confirmation page
// and the settings page's list.
import type { BlockedUser, BlockState } from "../../server/rules/blocks.ts";
import type { Page } from "../../server/rules/api-responses.ts";
import type { Api } from "./api.server.ts";

/** Blocked users on one page of the settings list. */
export const BLOCKS_PER_PAGE = 50;

export const blockState = (api: Api, userId: number) => api.call<BlockState>(`/me/blocks/${userId}`);
export const blockUser = (api: Api, userId: number) => api.call<BlockState>(`/me/blocks/${userId}`, { method: "PUT" });
export const unblockUser = (api: Api, userId: number) => api.call<BlockState>(`/me/blocks/${userId}`, { method: "DELETE" });
export const blockedUsers = (api: Api, page: number) =>
  api.call<Page<BlockedUser>>("/me/blocks", { query: { page, per_page: BLOCKS_PER_PAGE } });
