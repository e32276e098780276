import { useSearchParams } from "@remix-run/react";
import { deletedNotice, deletedNoticeParam } from "../lib/deletion.ts";
import { Notice } from "./notice.tsx";

/** "The hub was deleted.": shown on the page a deletion redirected to (`?deleted=hub`), above the page itself. */
export function DeletedNotice() {
  const [params] = useSearchParams();
  const text = deletedNotice(params.get(deletedNoticeParam));
  return text ? (
    <div className="container">
      <Notice className="deleted-notice">{text}</Notice>
    </div>
  ) : null;
}
