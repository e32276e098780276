import { Link } from "./link.tsx";
import { hiddenLine, SHOW_BLOCKED_PARAM } from "../lib/blocks.ts";
import { withParams } from "../lib/urls.ts";

/**
 * The line a list shows when the viewer's blocks left items out ("2 posts hidden from people you blocked. Show them"),
 * or while they are shown (`?showBlocked=1`): a plain link either way, so it works without JavaScript.
 */
export function HiddenByBlocks({
  hidden,
  shown,
  noun,
  nouns = `${noun}s`,
  search,
  hash = "",
}: {
  hidden: number;
  shown: boolean;
  noun: string;
  /** The plural, where it is not `noun` + "s" ("replies"). */
  nouns?: string;
  search: string;
  hash?: string;
}) {
  if (shown) {
    return (
      <p className="muted hidden-by-blocks" role="status">
        Showing {nouns} from people you blocked.{" "}
        <Link to={withParams(search, { [SHOW_BLOCKED_PARAM]: null }) + hash} preventScrollReset>
          Hide them
        </Link>
      </p>
    );
  }
  if (hidden === 0) return null;
  return (
    <p className="muted hidden-by-blocks" role="status">
      {hiddenLine(hidden, noun, nouns)}{" "}
      <Link to={withParams(search, { [SHOW_BLOCKED_PARAM]: "1" }) + hash} preventScrollReset>
        Show them
      </Link>
    </p>
  );
}
