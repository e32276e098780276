import { useRouteLoaderData } from "@remix-run/react";
import type { AboutPreview } from "./about.ts";

/** What the root loader gives every screen. */
export interface RootData {
  user: { id: number; username: string; email: string } | null;
  /** The signed-in user's unread notifications (the header's bell); null for guests or when the API did not say. */
  unreadCount: number | null;
  publicApiUrl: string;
  /** The web app's public origin (PUBLIC_URL): canonical URLs and share cards (app/lib/social-meta.ts). */
  publicUrl: string;
  /** Where image bytes load from: IMAGE_PUBLIC_URL or the API origin. */
  imagePublicUrl: string;
  contactEmail: string;
  year: number;
  /** The footer's About preview: sent as data, so its text is not in every page's JavaScript. */
  about: AboutPreview | null;
}

export function useRootData(): RootData {
  const data = useRouteLoaderData<RootData>("root");
  return (
    data ?? {
      user: null,
      unreadCount: null,
      publicApiUrl: "",
      publicUrl: "",
      imagePublicUrl: "",
      contactEmail: "contact@example.com",
      year: new Date().getUTCFullYear(),
      about: null,
    }
  );
}
