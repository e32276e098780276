import { lazy, memo, Suspense } from "react";
import type { CommentSection as CommentSectionComponent } from "./comment-section.tsx";

// The comments sit below the post or the reader, so their code loads after the page's own and the page is
// interactive sooner (the route's JavaScript stays under the 100 KB budget). The server renders them in full;
// until their code arrives, React keeps that HTML as it is, and its forms work as they do without JavaScript.
const CommentSectionCode = lazy(() => import("./comment-section.tsx").then((m) => ({ default: m.CommentSection })));

// Memo, because a boundary still waiting for its code that re-renders (any router update re-renders the route)
// would drop the server's HTML and show the empty fallback until the code arrives.
export const LazyCommentSection = memo(function LazyCommentSection(props: Parameters<typeof CommentSectionComponent>[0]) {
  return (
    <Suspense fallback={null}>
      <CommentSectionCode {...props} />
    </Suspense>
  );
});
