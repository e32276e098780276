import type { Series } from "../../server/rules/api-responses.ts";
import { SeriesCard } from "./cards.tsx";
import { ListOrNotice } from "./notice.tsx";
import { Pager } from "./pager.tsx";

/** One page of series as cards with its pager, or the notice when it failed to load or is empty (`empty`). */
export function SeriesGrid({
  list,
  page,
  empty,
}: {
  list: { content: Series[]; totalPages: number } | null;
  page: number;
  empty: React.ReactNode;
}) {
  return (
    <>
      <ListOrNotice items={list?.content ?? null} failed="Failed to load series" empty={empty}>
        {(items) => (
          <div className="grid grid--cards">
            {items.map((series) => (
              <SeriesCard key={series.id} series={series} />
            ))}
          </div>
        )}
      </ListOrNotice>
      {list ? <Pager page={page} totalPages={list.totalPages} label="Series pages" /> : null}
    </>
  );
}
