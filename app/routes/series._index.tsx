import type { LinksFunction, LoaderFunctionArgs, MetaFunction, MetaDescriptor } from "@remix-run/node";
import { Form, useLoaderData, useLocation } from "@remix-run/react";
import { Link } from "../components/link.tsx";
import { SeriesCard } from "../components/cards.tsx";
import { SearchBox } from "../components/search-box.tsx";
import { SeriesGrid } from "../components/series-grid.tsx";
import { SortTabs } from "../components/sort-tabs.tsx";
import { TagLinks } from "../components/series-meta.tsx";
import { pageParam } from "../lib/format.ts";
import { attempt, viewerApi } from "../lib/load.server.ts";
import { seriesFiltersOf } from "../lib/series-filters.server.ts";
import {
  filtered,
  filterQuery,
  RATING_OPTIONS,
  SORT_OPTIONS,
  STATUS_OPTIONS,
  tagPath,
  tagsText,
  withoutTag,
  type SeriesFilters,
} from "../lib/series-meta.ts";
import { socialMeta, originsOf, type MatchLike } from "../lib/social-meta.ts";
import { metaFromLoader } from "../lib/loader-meta.ts";
import seriesStyles from "../styles/series.css?url";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: seriesStyles }];

export const meta: MetaFunction<typeof loader> = ({ data }) => metaFromLoader(data, [{ title: "Series · Inkwell" }]);

const shareCard = (data: { page: number }, matches: readonly MatchLike[]): MetaDescriptor[] =>
  socialMeta(matches, {
    title: "Series · Inkwell",
    description: "Browse comics and manga series on Inkwell: the most followed, the newest, by tag, status and rating, or search by name.",
    path: "/series",
    page: data?.page,
  });

/** Series in the Top Series grid (docs/web.md §11: /series/top?per_page=10). */
export const TOP_SERIES = 10;
/** Tags in the Popular Tags row (docs/web.md §12). */
export const POPULAR_TAGS = 12;

/**
 * `/series?q=&tag=&status=&rating=&sort=new|popular|updated&page=`: every choice lives in the URL,
 * so the filters work as a plain GET form and links (docs/web.md §12). The Top Series and Popular
 * Tags rows show on the plain list only.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const query = (url.searchParams.get("q") ?? "").trim().slice(0, 200);
  const page = pageParam(url.searchParams.get("page"));
  const filters = seriesFiltersOf(url);
  const plain = query === "" && !filtered(filters);
  const { api } = await viewerApi(request, context);
  const apiFilters = filterQuery(filters);
  const [list, top, tags] = await Promise.all([
    attempt(query ? api.searchSeries(query, page, apiFilters) : api.seriesList(page, apiFilters)),
    plain ? attempt(api.topSeries(TOP_SERIES)) : null,
    plain ? attempt(api.tags(1, POPULAR_TAGS)) : null,
  ]);
  return {
    query,
    page,
    filters,
    list: list.ok ? list.value : null,
    topSeries: top?.ok ? top.value.content : null,
    popularTags: tags?.ok ? tags.value.content : null,
    meta: shareCard({ page }, originsOf(context.config)),
  };
}

export default function SeriesList() {
  const { query, page, filters, list, topSeries, popularTags } = useLoaderData<typeof loader>();
  const searching = query !== "";
  const narrowed = filtered(filters);
  const keep = {
    ...(filters.tags.length ? { tag: filters.tags } : {}),
    ...(filters.status ? { status: filters.status } : {}),
    ...(filters.rating ? { rating: filters.rating } : {}),
    ...(filters.sort !== "new" ? { sort: filters.sort } : {}),
  };
  return (
    <div className="container">
      <header className="page-head">
        <div>
          <p className="eyebrow">Read</p>
          <h1>Series</h1>
          <p className="muted">Comics, manga and webcomics, published chapter by chapter by their artists.</p>
        </div>
        <SearchBox label="Search series by name" placeholder="Search series name..." value={query} keep={keep} />
      </header>

      <SeriesFilterForm query={query} filters={filters} />

      {!searching && !narrowed && topSeries && topSeries.length > 0 ? (
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

      {popularTags && popularTags.length > 0 ? (
        <section className="section" aria-labelledby="popular-tags-title">
          <div className="section-head">
            <h2 id="popular-tags-title" className="section__title">
              Popular Tags
            </h2>
            <Link to="/tags">All tags</Link>
          </div>
          <TagLinks tags={popularTags.map((t) => t.name)} counts={popularTags} label="Popular tags" />
        </section>
      ) : null}

      <section className="section" aria-labelledby="series-list-title">
        <div className="section-head">
          <h2 id="series-list-title" className="section__title">
            {searching ? "Search Results" : narrowed ? "Matching Series" : "More Series"}
          </h2>
          <SortTabs options={SORT_OPTIONS} current={filters.sort} label="Sort series" />
        </div>
        {searching && list ? (
          <p className="muted search-summary" role="status">
            {`${list.totalElements} ${list.totalElements === 1 ? "series matches" : "series match"} “${query}”`}
          </p>
        ) : null}
        <SeriesGrid
          list={list}
          page={page}
          empty={
            narrowed ? (
              <>
                No series match these filters.{" "}
                <Link to={searching ? `/series?q=${encodeURIComponent(query)}` : "/series"}>Clear filters</Link>
              </>
            ) : (
              "No series found."
            )
          }
        />
      </section>
    </div>
  );
}

/** The filter form's selects: the URL parameter (also the filter's key), its label, the first choice and the others. */
const FILTER_SELECTS = [
  { name: "status", label: "Status", any: "Any status", options: STATUS_OPTIONS },
  { name: "rating", label: "Rating", any: "Any rating", options: RATING_OPTIONS },
] as const;

/**
 * The filters as a GET form (works without JavaScript): tags as comma-separated text, status and
 * rating as selects; the search text and the order ride along. The active tags show as links that
 * remove them.
 */
function SeriesFilterForm({ query, filters }: { query: string; filters: SeriesFilters }) {
  const { search } = useLocation();
  const narrowed = filtered(filters);
  return (
    <section className="series-filters card" aria-labelledby="series-filters-title">
      <h2 id="series-filters-title" className="visually-hidden">
        Filters
      </h2>
      <Form method="get" className="series-filters__form">
        {query ? <input type="hidden" name="q" value={query} /> : null}
        {filters.sort !== "new" ? <input type="hidden" name="sort" value={filters.sort} /> : null}
        <div className="field">
          <label htmlFor="filter-tag">Tags</label>
          <input
            id="filter-tag"
            type="text"
            name="tag"
            defaultValue={tagsText(filters.tags)}
            placeholder="e.g. fantasy, samurai"
            maxLength={330}
            aria-describedby="filter-tag-hint"
          />
          <p id="filter-tag-hint" className="field__hint">
            Separate tags with commas; a series must have them all.
          </p>
        </div>
        {FILTER_SELECTS.map((select) => (
          <div key={select.name} className="field">
            <label htmlFor={`filter-${select.name}`}>{select.label}</label>
            <select id={`filter-${select.name}`} name={select.name} defaultValue={filters[select.name] ?? ""}>
              <option value="">{select.any}</option>
              {select.options.map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </select>
          </div>
        ))}
        <div className="series-filters__actions">
          <button type="submit" className="button button--primary">
            Apply filters
          </button>
          {narrowed ? (
            <Link to={query ? `/series?q=${encodeURIComponent(query)}` : "/series"} className="button button--ghost">
              Clear filters
            </Link>
          ) : null}
        </div>
      </Form>
      {filters.tags.length > 0 ? (
        <ul className="tag-list" aria-label="Active tags">
          {filters.tags.map((tag) => (
            <li key={tag}>
              <Link to={tagPath(tag)} className="tag">
                {tag}
              </Link>{" "}
              <Link to={withoutTag(search, filters.tags, tag)} className="tag-remove" aria-label={`Remove tag ${tag}`}>
                ×
              </Link>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
