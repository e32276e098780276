import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Link } from "../components/link.tsx";
import { ModLogList } from "../components/modlog-list.tsx";
import { FailedPage, Notice } from "../components/notice.tsx";
import { Pager } from "../components/pager.tsx";
import { pageParam } from "../lib/format.ts";
import { attempt, readFailure, viewerApi } from "../lib/load.server.ts";
import { hubModLog } from "../lib/moderation.server.ts";
import { hubPath } from "../lib/urls.ts";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `Mod log of ${data?.hubName ?? "a hub"} · Inkwell` }];

/** A hub's public mod log (docs/api.md "Bans, suspensions and the mod log"): what its moderators did, newest first. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { api } = await viewerApi(request, context);
  const page = pageParam(new URL(request.url).searchParams.get("page"));
  const name = params.hubName ?? "";
  const [hub, log] = await Promise.all([attempt(api.hub(name)), attempt(hubModLog(api, name, page))]);
  if (!hub.ok || !log.ok) {
    const failed = readFailure(!hub.ok ? hub : !log.ok ? log : { status: 502 }, "No hub found.", "Failed to load the mod log");
    return data({ hubName: null, log: null, error: failed.message }, { status: failed.status });
  }
  return { hubName: hub.value.name, log: log.value, error: null };
}

export default function HubModLog() {
  const { hubName, log, error } = useLoaderData<typeof loader>();
  if (!hubName || !log) return <FailedPage title="Mod log" error={error} />;
  return (
    <div className="container modlog-page">
      <header className="page-head">
        <div>
          <p className="eyebrow">
            <Link to={hubPath(hubName)}>{hubName}</Link>
          </p>
          <h1>Mod log</h1>
          <p>Every ban, removal and moderator change in this hub, newest first.</p>
        </div>
      </header>
      {log.content.length === 0 ? (
        <Notice>Nothing has been moderated here yet.</Notice>
      ) : (
        <ModLogList items={log.content} hubName={hubName} />
      )}
      {log.totalPages > 1 ? <Pager page={log.page} totalPages={log.totalPages} label="Mod log pages" /> : null}
    </div>
  );
}
