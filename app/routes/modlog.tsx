import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { ModLogList } from "../components/modlog-list.tsx";
import { FailedPage, Notice } from "../components/notice.tsx";
import { Pager } from "../components/pager.tsx";
import { apiFor } from "../lib/api.server.ts";
import { pageParam } from "../lib/format.ts";
import { attempt } from "../lib/load.server.ts";
import { siteModLog } from "../lib/moderation.server.ts";
import { requireUser } from "../lib/session.server.ts";

export const meta: MetaFunction = () => [{ title: "Site mod log · Inkwell" }];

/** The site's mod log (docs/api.md "Bans, suspensions and the mod log"): every entry, hubs' and site-wide (suspensions), for admins. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const session = await requireUser(request, context);
  const page = pageParam(new URL(request.url).searchParams.get("page"));
  const log = await attempt(siteModLog(apiFor(request, context, session), page));
  if (!log.ok) {
    const status = log.status === 403 ? 403 : 502;
    return data(
      { log: null, error: status === 403 ? "Only admins can read the site's mod log." : "Failed to load the mod log" },
      { status },
    );
  }
  return { log: log.value, error: null };
}

export default function SiteModLog() {
  const { log, error } = useLoaderData<typeof loader>();
  if (!log) return <FailedPage title="Site mod log" error={error} />;
  return (
    <div className="container modlog-page">
      <header className="page-head">
        <div>
          <p className="eyebrow">Admins</p>
          <h1>Site mod log</h1>
          <p>Everything moderators and admins did, in every hub and site-wide, newest first.</p>
        </div>
      </header>
      {log.content.length === 0 ? <Notice>Nothing has been moderated yet.</Notice> : <ModLogList items={log.content} />}
      {log.totalPages > 1 ? <Pager page={log.page} totalPages={log.totalPages} label="Mod log pages" /> : null}
    </div>
  );
}
