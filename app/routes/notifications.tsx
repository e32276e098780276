import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useFetcher, useLoaderData, useNavigate } from "@remix-run/react";
import { Link } from "../components/link.tsx";
import type { Notification } from "../../server/rules/api-responses.ts";
import { Avatar } from "../components/images.tsx";
import { ListOrNotice } from "../components/notice.tsx";
import { Pager } from "../components/pager.tsx";
import { SortTabs } from "../components/sort-tabs.tsx";
import { ApiError, apiFor } from "../lib/api.server.ts";
import { pageParam, relativeDate } from "../lib/format.ts";
import { formText } from "../lib/forms.ts";
import { attempt } from "../lib/load.server.ts";
import { notificationSentence } from "../lib/notifications.ts";
import { safeRedirect } from "../lib/redirects.ts";
import { requireUser } from "../lib/session.server.ts";
import { useHydrated } from "../lib/use-hydrated.ts";

export const meta: MetaFunction = () => [{ title: "Notifications · Inkwell" }];

/** Notifications on a page. */
export const NOTIFICATIONS_PER_PAGE = 20;

const FILTERS = [
  { value: "all", label: "All" },
  { value: "true", label: "Unread only" },
];

/** The signed-in user's notifications, newest first; `?unread=true` lists only the unread. Guests go to the login page. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const session = await requireUser(request, context);
  const url = new URL(request.url);
  const page = pageParam(url.searchParams.get("page"));
  const unreadOnly = url.searchParams.get("unread") === "true";
  const list = await attempt(apiFor(request, context, session).notifications(page, unreadOnly, NOTIFICATIONS_PER_PAGE));
  return { page, unreadOnly, list: list.ok ? list.value : null, now: Date.now() };
}

/**
 * `intent=read` with `id` and `to`: marks one read and goes to `to` (the notification's subject, a path on this site).
 * `intent=read-all`: marks every one read and comes back here. Both redirect a form sent without JavaScript
 * (`noscript`); a fetcher gets `{ ok, count }` (the page has navigated already, or revalidates).
 */
export async function action({ request, context }: ActionFunctionArgs) {
  const session = await requireUser(request, context);
  const form = await request.formData();
  const api = apiFor(request, context, session);
  const intent = formText(form, "intent");
  const back = () => {
    const url = new URL(request.url);
    url.searchParams.delete("index");
    return url.pathname + url.search;
  };
  if (intent === "read") {
    const id = Number(formText(form, "id"));
    const to = formText(form, "to");
    if (!Number.isSafeInteger(id) || id < 1) throw data({ ok: false, message: "Unknown notification" }, { status: 400 });
    try {
      await api.markRead({ ids: [id] });
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      // Opening still works: the item stays unread and says so on the next visit.
      console.warn(`[notifications] read ${id} failed for ${session.user.username}: ${err.status} ${err.message}`);
    }
    if (form.get("noscript")) return redirect(safeRedirect(to, back()), 303);
    return { ok: true, count: null };
  }
  if (intent === "read-all") {
    let count: number | null = null;
    try {
      count = (await api.markRead({ all: true })).count;
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      console.warn(`[notifications] read all failed for ${session.user.username}: ${err.status} ${err.message}`);
    }
    if (form.get("noscript")) return redirect(back(), 303);
    return { ok: count !== null, count };
  }
  throw data({ ok: false, message: "Unknown action" }, { status: 400 });
}

export default function Notifications() {
  const { page, unreadOnly, list, now } = useLoaderData<typeof loader>();
  const hydrated = useHydrated();
  const readAll = useFetcher<typeof action>();
  // Optimistic: every item shows read while "Mark all read" is under way.
  const allRead = readAll.state !== "idle";
  return (
    <div className="container notifications-page">
      <header className="page-head">
        <div>
          <p className="eyebrow">Your activity</p>
          <h1>Notifications</h1>
        </div>
        <readAll.Form method="post" className="notifications-page__read-all">
          <input type="hidden" name="intent" value="read-all" />
          {hydrated ? null : <input type="hidden" name="noscript" value="1" />}
          <button type="submit" className="button button--ghost button--small" disabled={allRead}>
            Mark all read
          </button>
        </readAll.Form>
      </header>
      <SortTabs options={FILTERS} current={unreadOnly ? "true" : "all"} label="Show" param="unread" />
      <section className="section" aria-label={unreadOnly ? "Unread notifications" : "All notifications"}>
        <ListOrNotice items={list?.content ?? null} failed="Failed to load notifications" empty="No notifications yet.">
          {(items) => (
            <ul className="notification-list">
              {items.map((n) => (
                <NotificationItem key={n.id} notification={n} now={now} read={n.read || allRead} />
              ))}
            </ul>
          )}
        </ListOrNotice>
        {list && list.totalPages > 1 ? <Pager page={page} totalPages={list.totalPages} label="Notification pages" /> : null}
      </section>
    </div>
  );
}

/**
 * One notification. An unread one is a form that marks it read and then opens its subject (without JavaScript the
 * action redirects; with it, a fetcher posts and the page navigates at once); a read one is a plain link.
 */
function NotificationItem({ notification: n, now, read }: { notification: Notification; now: number; read: boolean }) {
  const fetcher = useFetcher({ key: `notification-${n.id}` });
  const hydrated = useHydrated();
  const navigate = useNavigate();
  const shownRead = read || fetcher.state !== "idle";
  const sentence = notificationSentence(n);
  const body = (
    <>
      {/* The sentence names the actor: the picture is decoration in the item's name. */}
      <span className="notification__avatar" aria-hidden="true">
        <Avatar name={n.actor?.username ?? "Inkwell"} imageId={n.actor?.profileImageID ?? null} size={40} />
      </span>
      <span className="notification__text">
        {shownRead ? null : <span className="visually-hidden">Unread: </span>}
        <span className="notification__sentence">{sentence}</span>
        <time className="notification__date" dateTime={n.createdAt}>
          {relativeDate(n.createdAt, now)}
        </time>
      </span>
      {shownRead ? null : <span className="notification__dot" aria-hidden="true" />}
    </>
  );
  return (
    <li className={`notification${shownRead ? "" : " notification--unread"}`}>
      {n.read ? (
        <Link to={n.subject.url} className="notification__open">
          {body}
        </Link>
      ) : (
        <fetcher.Form
          method="post"
          onSubmit={(event) => {
            // With JavaScript: mark it read in the background and go to the subject right away.
            event.preventDefault();
            fetcher.submit(event.currentTarget, { method: "post" });
            navigate(n.subject.url);
          }}
        >
          <input type="hidden" name="intent" value="read" />
          <input type="hidden" name="id" value={n.id} />
          <input type="hidden" name="to" value={n.subject.url} />
          {hydrated ? null : <input type="hidden" name="noscript" value="1" />}
          <button type="submit" className="notification__open">
            {body}
          </button>
        </fetcher.Form>
      )}
    </li>
  );
}
