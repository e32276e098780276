import type { LinksFunction, MetaFunction } from "@remix-run/node";
import { EntityFormScreen } from "../components/publish/entity-form.tsx";
import { entityAction, entityLoader } from "../lib/entity-form.server.ts";
import publishStyles from "../styles/publish.css?url";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: publishStyles }];

export const meta: MetaFunction = ({ params }) => [{ title: `${params.id ? "Edit series" : "Create a series"} · Inkwell` }];

/** /publish/series creates a series; /publish/series/{id} (or ?id=) edits it, for its author only. Any letter case. */
export const loader = entityLoader("series");
export const action = entityAction("series");

export default function SeriesForm() {
  return <EntityFormScreen kind="series" />;
}
