import { Link } from "./link.tsx";

/** "Edit hub" and "Delete hub" (or series): the author's links on the page of a hub or a series. */
export function EditDeleteLinks({ noun, editTo, deleteTo }: { noun: "hub" | "series"; editTo: string; deleteTo: string }) {
  return (
    <>
      <Link to={editTo} className="button button--ghost">
        Edit {noun}
      </Link>
      <Link to={deleteTo} className="button button--ghost">
        Delete {noun}
      </Link>
    </>
  );
}
