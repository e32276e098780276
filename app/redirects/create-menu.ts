import { redirect } from "@remix-run/node";

/** /create: the first product's other name of the publish menu (docs/web.md §7). */
export function loader() {
  throw redirect("/publish", 301);
}
