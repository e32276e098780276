import type { LoaderFunctionArgs, MetaFunction, MetaDescriptor } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import type { Hub } from "../../server/rules/api-responses.ts";
import { HubCard, HubChip, type HubCardData } from "../components/cards.tsx";
import { ListOrNotice } from "../components/notice.tsx";
import { Pager } from "../components/pager.tsx";
import { SearchBox } from "../components/search-box.tsx";
import { loadSearchableList } from "../lib/load.server.ts";
import { socialMeta, originsOf, type MatchLike } from "../lib/social-meta.ts";
import { metaFromLoader } from "../lib/loader-meta.ts";

export const meta: MetaFunction<typeof loader> = ({ data }) => metaFromLoader(data, [{ title: "Hubs · Inkwell" }]);

const shareCard = (data: { page: number }, matches: readonly MatchLike[]): MetaDescriptor[] =>
  socialMeta(matches, {
    title: "Hubs · Inkwell",
    description: "Hubs on Inkwell: communities of artists and readers talking about comics and manga, drawing and contests.",
    path: "/hubs",
    page: data?.page,
  });

/** Hubs in the Top Hubs row ("GET /hubs/top without page size": the API's default of 10). */
const TOP_HUBS = 10;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { top, list, ...rest } = await loadSearchableList(request, context, {
    search: (api, query, page) => api.searchHubs(query, page),
    all: (api, page) => api.hubs(page),
    top: (api) => api.topHubs(TOP_HUBS),
  });
  // Only what the cards and chips show: the loader's data is written into the page.
  return {
    ...rest,
    list: list && { ...list, content: list.content.map(hubCardOf) },
    topHubs: top && top.map(({ id, name, profileImageId, memberCount }) => ({ id, name, profileImageId, memberCount })),
    meta: shareCard(rest, originsOf(context.config)),
  };
}

const hubCardOf = ({ id, name, description, memberCount, profileImageId, profileBannerId }: Hub): HubCardData => ({
  id,
  name,
  description,
  memberCount,
  profileImageId,
  profileBannerId,
});

export default function Hubs() {
  const { query, page, list, topHubs } = useLoaderData<typeof loader>();
  const searching = query !== "";
  return (
    <div className="container">
      <header className="page-head">
        <div>
          <p className="eyebrow">Communities</p>
          <h1>Hubs</h1>
          <p className="muted">Find your people: discuss series, share sketches and join art contests.</p>
        </div>
        <SearchBox label="Search hubs by name" placeholder="Search hub name..." value={query} />
      </header>

      {!searching && topHubs && topHubs.length > 0 ? (
        <section className="section" aria-labelledby="top-hubs-title">
          <h2 id="top-hubs-title" className="section__title">
            Top Hubs
          </h2>
          <ul className="chip-row">
            {topHubs.map((hub) => (
              <li key={hub.id}>
                <HubChip hub={hub} />
              </li>
            ))}
          </ul>
        </section>
      ) : null}

      <section className="section" aria-labelledby="hub-list-title">
        <h2 id="hub-list-title" className="section__title">
          {searching ? "Search Results" : "All Hubs"}
        </h2>
        {searching ? (
          <p className="muted search-summary" role="status">
            {list ? `${list.totalElements} ${list.totalElements === 1 ? "hub matches" : "hubs match"} “${query}”` : ""}
          </p>
        ) : null}
        <ListOrNotice items={list?.content ?? null} failed="Failed to load hubs" empty="No hubs found.">
          {(items) => (
            <div className="grid grid--cards">
              {items.map((hub, i) => (
                // The first banners are in a phone's first screen, one of them the LCP element.
                <HubCard key={hub.id} hub={hub} eager={i < 2} />
              ))}
            </div>
          )}
        </ListOrNotice>
        {list ? <Pager page={page} totalPages={list.totalPages} label="Hub pages" /> : null}
      </section>
    </div>
  );
}
