// The site's <Link> (app/components/link.tsx): on the server, a link to a plain path renders the same <a> as Remix's
// <Link>, byte for byte, without the router; anything else is Remix's own.
import { Link as RemixLink, type LinkProps } from "@remix-run/react";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { StaticRouter } from "react-router-dom/server";
import { describe, expect, it } from "vitest";
import { Link, ServerLink } from "../../app/components/link.tsx";

const LOCATION = "/hubs/Ink%20%26%20Brushes/200000";

const render = (component: typeof Link | typeof ServerLink, props: LinkProps) =>
  renderToString(createElement(StaticRouter, { location: LOCATION }, createElement(component as typeof Link, props)));

const PLAIN: LinkProps[] = [
  { to: "/", children: "Home" },
  { to: "/hubs/Ink & Brushes", className: "card__link", children: 'A <hub> & "its" name' },
  { to: "/hubs/Ink%20%26%20Brushes/200000?csort=top&cpage=2#comments", children: "Top comments" },
  { to: "/series/Paper Moon Saga/6?page=3", rel: "next", prefetch: "intent", children: "Next" },
  { to: "/series/x?", "aria-label": "lone ?", prefetch: "viewport", children: "x" },
  { to: "/series/x#", title: "lone #", target: "_blank", children: "x" },
  { to: "/user/bob/", discover: "none", id: "me", children: "Trailing slash" },
  { to: "/feed", replace: true, state: { from: 1 }, preventScrollReset: true, viewTransition: true, onClick: () => {}, children: "Feed" },
  { to: "/tags/a.b", ...{ "data-x": "1" }, style: { color: "red" }, children: "Dots in a segment" },
];

const OTHERS: LinkProps[] = [
  { to: "?page=2", children: "relative query" },
  { to: "../", children: "up" },
  { to: "comments", children: "relative path" },
  { to: { pathname: "/hubs", search: "?q=a" }, children: "location object" },
  { to: "/hubs/./x/../y", children: "dot segments" },
  { to: "/hubs//x", children: "double slash" },
  { to: "//example.com/x", children: "protocol-relative" },
  { to: "https://example.com/x", children: "absolute URL" },
  { to: "/forgot-password", reloadDocument: true, children: "reload" },
  { to: "/x", relative: "path", children: "relative=path" },
];

describe("the site's <Link> on the server", () => {
  it.each(PLAIN.map((props) => [props.to as string, props] as const))("renders Remix's <a> for the plain path %s", (_to, props) => {
    const remix = render(RemixLink, props);
    expect(render(ServerLink, props as LinkProps & { to: string })).toBe(remix);
    expect(render(Link, props)).toBe(remix);
  });

  it.each(OTHERS.map((props) => [JSON.stringify(props.to), props] as const))("is Remix's own for %s", (_to, props) => {
    expect(render(Link, props)).toBe(render(RemixLink, props));
  });

  it("takes the path without the router when it can (its <a> renders outside any router)", () => {
    const alone = renderToString(createElement(Link, { to: "/hubs?page=2", className: "x", children: "Hubs" }));
    expect(alone).toBe('<a class="x" data-discover="true" href="/hubs?page=2">Hubs</a>');
  });
});
