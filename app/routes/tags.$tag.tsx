import { data, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Link } from "../components/link.tsx";
import { SeriesGrid } from "../components/series-grid.tsx";
import { SortTabs } from "../components/sort-tabs.tsx";
import { pageParam } from "../lib/format.ts";
import { attempt, viewerApi } from "../lib/load.server.ts";
import { tagOf } from "../lib/series-filters.server.ts";
import { seriesFilters, SORT_OPTIONS } from "../lib/series-meta.ts";
import seriesStyles from "../styles/series.css?url";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: seriesStyles }];

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data?.tag ? `#${data.tag}` : "Tag"} · Inkwell` },
  ...(data?.tag ? [{ name: "description", content: `Comics and manga series tagged “${data.tag}” on Inkwell.` }] : []),
];

/**
 * `/tags/{tag}?sort=&page=`: the series carrying one tag (GET /series?tag=), ten a page, in the
 * series list's orders. A tag that is no tag (empty, a comma, too long) is a 404.
 */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const tag = tagOf(params.tag ?? "");
  const page = pageParam(url.searchParams.get("page"));
  const { sort } = seriesFilters(url.searchParams);
  if (tag === null) return data({ tag: null, sort, page, list: null }, { status: 404 });
  const { api } = await viewerApi(request, context);
  const list = await attempt(api.seriesList(page, { tag: [tag], sort }));
  return { tag, sort, page, list: list.ok ? list.value : null };
}

export default function TagPage() {
  const { tag, sort, page, list } = useLoaderData<typeof loader>();
  if (tag === null) {
    return (
      <div className="container page-message">
        <h1>Tag</h1>
        <p className="notice notice--error" role="alert">
          No such tag.
        </p>
        <p>
          <Link to="/tags" className="button button--secondary">
            All tags
          </Link>
        </p>
      </div>
    );
  }
  return (
    <div className="container">
      <header className="page-head">
        <div>
          <p className="eyebrow">
            <Link to="/tags">Tags</Link>
          </p>
          <h1>#{tag}</h1>
          {list ? <p className="muted">{`${list.totalElements} series tagged “${tag}”`}</p> : null}
        </div>
        <Link to={`/series?tag=${encodeURIComponent(tag)}`} className="button button--secondary">
          Filter further
        </Link>
      </header>
      <section className="section" aria-labelledby="tag-series-title">
        <div className="section-head">
          <h2 id="tag-series-title" className="section__title">
            Series
          </h2>
          <SortTabs options={SORT_OPTIONS} current={sort} label="Sort series" />
        </div>
        <SeriesGrid list={list} page={page} empty={`No series are tagged “${tag}” yet.`} />
      </section>
    </div>
  );
}
