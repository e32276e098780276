// The one page of the baseline: a few strings from a loader, rendered by React on the server.
import type { MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";

export const meta: MetaFunction = () => [{ title: "Minimal Remix page" }];

export function loader() {
  return { title: "Hello from Remix", message: "A minimal page: one route, no data beyond these strings." };
}

export default function Index() {
  const { title, message } = useLoaderData<typeof loader>();
  return (
    <main>
      <h1>{title}</h1>
      <p>{message}</p>
    </main>
  );
}
