import type { LinksFunction, MetaFunction } from "@remix-run/node";
import { EntityFormScreen } from "../components/publish/entity-form.tsx";
import { entityAction, entityLoader } from "../lib/entity-form.server.ts";
import publishStyles from "../styles/publish.css?url";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: publishStyles }];

export const meta: MetaFunction = ({ params }) => [{ title: `${params.id ? "Edit hub" : "Create a hub"} · Inkwell` }];

/** /publish/hub creates a hub; /publish/hub/{id} (or ?id=) edits it, for its creator only. Any letter case. */
export const loader = entityLoader("hub");
export const action = entityAction("hub");

export default function HubForm() {
  return <EntityFormScreen kind="hub" />;
}
