// The API calls of passkeys (docs/api.md "Passkeys") on the typed client's `call`: the settings page's list, its
// resource route (app/routes/settings_.passkeys.tsx) and the sign-in's (app/routes/login_.passkey.tsx).
import type { Passkey } from "../../server/rules/passkeys.ts";
import type { Api } from "./api.server.ts";

export const listPasskeys = (api: Api) => api.call<Passkey[]>("/me/passkeys");
export const passkeyCreationOptions = (api: Api) => api.call<Record<string, unknown>>("/me/passkeys/options", { method: "POST" });
export const addPasskey = (api: Api, body: { name: string; response: unknown }) =>
  api.call<Pick<Passkey, "id" | "name" | "createdAt">>("/me/passkeys", { method: "POST", body });
export const deletePasskey = (api: Api, id: number) => api.call<{ id: number; deleted: true }>(`/me/passkeys/${id}`, { method: "DELETE" });
export const passkeyRequestOptions = (api: Api) =>
  api.call<{ challengeId: string } & Record<string, unknown>>("/auth/passkey/options", { method: "POST" });
export const passkeySignIn = (api: Api, body: { challengeId: string; response: unknown }) =>
  api.call<{ accessToken: string }>("/auth/passkey", { method: "POST", body });
