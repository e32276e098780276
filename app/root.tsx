import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import {
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  ScrollRestoration,
  useRouteError,
  type ShouldRevalidateFunction,
} from "@remix-run/react";
import { Link } from "./components/link.tsx";
import { useEffect } from "react";
import { DeletedNotice } from "./components/deleted-notice.tsx";
import { ScriptsAfterLoad } from "./components/scripts-after-load.tsx";
import { SiteFooter } from "./components/site-footer.tsx";
import { SiteHeader } from "./components/site-header.tsx";
import { ABOUT } from "./lib/about.ts";
import { useNonce } from "./lib/nonce.ts";
import { useRootData, type RootData } from "./lib/root-data.ts";
import { optionalUser } from "./lib/session.server.ts";
import { viewerState } from "./lib/viewer.server.ts";
import stylesheet from "./styles/app.css?url";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: stylesheet },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

export const meta: MetaFunction = () => [
  { title: "Inkwell — comics and manga community" },
  { name: "description", content: "Read comics and manga, follow series and join hubs of artists and readers on Inkwell." },
];

/**
 * Who is signed in comes from the session cookie alone (its expiry is checked here on every request).
 * A signed-in user's unread count (the bell) comes with the viewer's state, read once per request for every
 * loader; a guest's page makes no call, so it stays the same for every guest and the guest page cache keeps it.
 * A failed read only hides the badge.
 */
export async function loader({ request, context }: LoaderFunctionArgs): Promise<RootData> {
  const session = await optionalUser(request, context);
  const unreadCount = (await viewerState(request, context, session))?.unreadCount ?? null;
  return {
    user: session?.user ?? null,
    unreadCount,
    publicApiUrl: context.config.publicApiUrl,
    publicUrl: context.config.publicUrl,
    imagePublicUrl: context.config.imagePublicUrl,
    contactEmail: context.config.contactEmail,
    year: new Date().getFullYear(),
    about: { mission: ABOUT.mission, ownership: ABOUT.ownership, whatToPublish: ABOUT.whatToPublish },
  };
}

/**
 * Who is signed in changes with a form (login, logout, a toggle) or on another page, never with
 * the query alone: turning a reader's page, paging or sorting a list does not reload this.
 */
export const shouldRevalidate: ShouldRevalidateFunction = ({ currentUrl, nextUrl, formMethod, defaultShouldRevalidate }) => {
  if (!formMethod && currentUrl.pathname === nextUrl.pathname && currentUrl.search !== nextUrl.search) return false;
  return defaultShouldRevalidate;
};

export function Layout({ children }: { children: React.ReactNode }) {
  const nonce = useNonce();
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#17141f" />
        <Meta />
        <Links />
      </head>
      <body>
        {children}
        <ScrollRestoration nonce={nonce || undefined} />
        <ScriptsAfterLoad nonce={nonce || undefined} />
      </body>
    </html>
  );
}

function Shell({ children }: { children: React.ReactNode }) {
  const { user, unreadCount, year, about } = useRootData();
  // A mark for browser tests (and CSS, if ever needed) that React has taken over the page.
  useEffect(() => {
    document.documentElement.dataset.hydrated = "true";
  }, []);
  return (
    <>
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <SiteHeader user={user} unreadCount={unreadCount} />
      <main id="main" className="site-main" tabIndex={-1}>
        {children}
      </main>
      <SiteFooter year={year} about={about} />
    </>
  );
}

export default function App() {
  return (
    <Shell>
      <DeletedNotice />
      <Outlet />
    </Shell>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  if (!notFound) console.error(error);
  return (
    <Shell>
      <div className="container page-message">
        <p className="eyebrow">{notFound ? "404" : "Error"}</p>
        <h1>{notFound ? "Page not found" : "Something went wrong"}</h1>
        <p>
          {notFound
            ? "There is nothing at this address. It may have moved, or the link may be mistyped."
            : "We could not show this page. Please try again in a moment."}
        </p>
        <p>
          <Link to="/" className="button button--primary">
            Back to home
          </Link>
        </p>
      </div>
    </Shell>
  );
}
