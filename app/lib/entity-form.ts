/** Hubs and series share one form: name, description, logo and banner. */
export type EntityKind = "hub" | "series";

export interface EntityValues {
  id: number;
  name: string;
  description: string;
  profileImageId: number | null;
  profileBannerId: number | null;
}
