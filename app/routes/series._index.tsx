import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { SeriesCard } from "../components/cards.tsx";
import { ListOrNotice } from "../components/notice.tsx";
import { Pager } from "../components/pager.tsx";
import { SearchBox } from "../components/search-box.tsx";
import { loadSearchableList } from "../lib/load.server.ts";
import seriesStyles from "../styles/series.css?url";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: seriesStyles }];

export const meta: MetaFunction = () => [
  { title: "Series · Inkwell" },
  { name: "description", content: "Browse comics and manga series on Inkwell: the most followed, the newest, or search by name." },
];

/** Series in the Top Series grid (docs/web.md §11: /series/top?per_page=10). */
export const TOP_SERIES = 10;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { top, ...rest } = await loadSearchableList(request, context, {
    search: (api, query, page) => api.searchSeries(query, page),
    all: (api, page) => api.seriesList(page),
    top: (api) => api.topSeries(TOP_SERIES),
  });
  return { ...rest, topSeries: top };
}

export default function SeriesList() {
  const { query, page, list, topSeries } = useLoaderData<typeof loader>();
  const searching = query !== "";
  return (
    <div className="container">
      <header className="page-head">
        <div>
          <p className="eyebrow">Read</p>
          <h1>Series</h1>
          <p className="muted">Comics, manga and webcomics, published chapter by chapter by their artists.</p>
        </div>
        <SearchBox label="Search series by name" placeholder="Search series name..." value={query} />
      </header>

      {!searching && topSeries && topSeries.length > 0 ? (
        <section className="section" aria-labelledby="top-series-title">
          <h2 id="top-series-title" className="section__title">
            Top Series
          </h2>
          <ul className="shelf">
            {topSeries.map((series, i) => (
              <li key={series.id} className="shelf__item">
                <SeriesCard series={series} rank={i + 1} />
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      <section className="section" aria-labelledby="series-list-title">
        <h2 id="series-list-title" className="section__title">
          {searching ? "Search Results" : "More Series"}
        </h2>
        {searching && list ? (
          <p className="muted search-summary" role="status">
            {`${list.totalElements} ${list.totalElements === 1 ? "series matches" : "series match"} “${query}”`}
          </p>
        ) : null}
        <ListOrNotice items={list?.content ?? null} failed="Failed to load series" empty="No series found.">
          {(items) => (
            <div className="grid grid--cards">
              {items.map((series) => (
                <SeriesCard key={series.id} series={series} />
              ))}
            </div>
          )}
        </ListOrNotice>
        {list ? <Pager page={page} totalPages={list.totalPages} label="Series pages" /> : null}
      </section>
    </div>
  );
}
