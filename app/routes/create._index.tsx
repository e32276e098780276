import { redirect } from "@remix-run/node";

/** /create: the spec's other name of the publish menu (CONTRACT.md 8). */
export function loader() {
  throw redirect("/publish", 301);
}
