import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Link } from "../components/link.tsx";
import { ListOrNotice } from "../components/notice.tsx";
import { Pager } from "../components/pager.tsx";
import { TagLinks } from "../components/series-meta.tsx";
import { pageParam } from "../lib/format.ts";
import { attempt, viewerApi } from "../lib/load.server.ts";
import seriesStyles from "../styles/series.css?url";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: seriesStyles }];

export const meta: MetaFunction = () => [
  { title: "Tags · Inkwell" },
  { name: "description", content: "Every tag of Inkwell's series, the most used first." },
];

/** Tags on one page of `/tags` (docs/web.md §12). */
export const TAGS_PER_PAGE = 60;

/** `/tags?page=`: the tags of `GET /tags`, most used first, each a link to its tag page. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const page = pageParam(new URL(request.url).searchParams.get("page"));
  const { api } = await viewerApi(request, context);
  const tags = await attempt(api.tags(page, TAGS_PER_PAGE));
  return { page, tags: tags.ok ? tags.value : null };
}

export default function Tags() {
  const { page, tags } = useLoaderData<typeof loader>();
  return (
    <div className="container">
      <header className="page-head">
        <div>
          <p className="eyebrow">Read</p>
          <h1>Tags</h1>
          <p className="muted">
            Every tag artists gave their series, the most used first. Combine several on the <Link to="/series">series list</Link>.
          </p>
        </div>
      </header>
      <ListOrNotice items={tags?.content ?? null} failed="Failed to load tags" empty="No tags yet.">
        {(items) => <TagLinks tags={items.map((t) => t.name)} counts={items} label="All tags" />}
      </ListOrNotice>
      {tags ? <Pager page={page} totalPages={tags.totalPages} label="Tag pages" /> : null}
    </div>
  );
}
