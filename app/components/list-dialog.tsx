import { useNavigate } from "@remix-run/react";
import { Link } from "./link.tsx";
import { useEffect, useRef } from "react";

/**
 * A popup opened by a link (`?show=...`), so it works without JavaScript: the server renders it
 * open, and in the browser it becomes a real modal (focus kept inside, Escape closes).
 */
export function ListDialog({ title, closeHref, children }: { title: string; closeHref: string; children: React.ReactNode }) {
  const ref = useRef<HTMLDialogElement>(null);
  const navigate = useNavigate();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog || typeof dialog.showModal !== "function") return;
    dialog.close();
    dialog.showModal();
    const onCancel = (e: Event) => {
      e.preventDefault();
      navigate(closeHref, { replace: true, preventScrollReset: true });
    };
    dialog.addEventListener("cancel", onCancel);
    return () => dialog.removeEventListener("cancel", onCancel);
  }, [closeHref, navigate]);
  return (
    <dialog ref={ref} open className="dialog" aria-labelledby="dialog-title">
      <div className="dialog__head">
        <h2 id="dialog-title">{title}</h2>
        <Link to={closeHref} replace preventScrollReset className="dialog__close" aria-label="Close">
          <span aria-hidden="true">×</span>
        </Link>
      </div>
      <div className="dialog__body">{children}</div>
    </dialog>
  );
}
