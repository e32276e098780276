import { useRouteLoaderData } from "@remix-run/react";

/** What the root loader gives every screen. */
export interface RootData {
  user: { id: number; username: string; email: string } | null;
  publicApiUrl: string;
  contactEmail: string;
  year: number;
}

export function useRootData(): RootData {
  const data = useRouteLoaderData<RootData>("root");
  return data ?? { user: null, publicApiUrl: "", contactEmail: "contact@example.com", year: new Date().getUTCFullYear() };
}
