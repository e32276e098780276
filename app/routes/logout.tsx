import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { clearSession } from "../lib/session.server.ts";

/** Logout is a POST (a link could be triggered by another site); it clears the session cookie. */
export async function action({ context }: ActionFunctionArgs) {
  throw redirect("/", { headers: { "Set-Cookie": await clearSession(context) } });
}

export function loader() {
  throw redirect("/");
}
