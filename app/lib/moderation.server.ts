// The API calls of the ban, suspension and mod log screens (docs/api.md "Bans, suspensions and the mod log"), on the typed client's `call`.
import type { BanInput, HubBan, HubBanState, Suspension } from "../../server/rules/bans.ts";
import type { ModLogItem, SiteModLogItem } from "../../server/rules/modlog.ts";
import type { Page } from "../../server/rules/api-responses.ts";
import type { Api } from "./api.server.ts";

const seg = (s: string | number) => encodeURIComponent(String(s));

/** Entries of a mod log page. */
export const MODLOG_PER_PAGE = 20;
/** Bans of a ban list page. */
export const BANS_PER_PAGE = 20;

export const hubModLog = (api: Api, hubName: string, page: number) =>
  api.call<Page<ModLogItem>>(`/hubs/${seg(hubName)}/modlog`, { query: { page, per_page: MODLOG_PER_PAGE } });

export const siteModLog = (api: Api, page: number) =>
  api.call<Page<SiteModLogItem>>("/modlog", { query: { page, per_page: MODLOG_PER_PAGE } });

export const hubBans = (api: Api, hubName: string, page: number) =>
  api.call<Page<HubBan>>(`/hubs/${seg(hubName)}/bans`, { query: { page, per_page: BANS_PER_PAGE } });

export const banFromHub = (api: Api, hubId: number, userId: number, body: BanInput) =>
  api.call<HubBanState>(`/hubs/${hubId}/bans/${userId}`, { method: "PUT", body });

export const liftHubBan = (api: Api, hubId: number, userId: number) =>
  api.call<HubBanState>(`/hubs/${hubId}/bans/${userId}`, { method: "DELETE", body: {} });

export const suspension = (api: Api, userId: number) => api.call<Suspension>(`/admin/users/${userId}/ban`);

export const suspend = (api: Api, userId: number, body: BanInput) =>
  api.call<Suspension>(`/admin/users/${userId}/ban`, { method: "PUT", body });

export const liftSuspension = (api: Api, userId: number) =>
  api.call<Suspension>(`/admin/users/${userId}/ban`, { method: "DELETE", body: {} });
