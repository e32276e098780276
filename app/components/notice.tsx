/** An empty list, a failure or a not-found message, in the exact words of docs/web.md §3. */
export function Notice({
  children,
  tone = "empty",
  className = "",
}: {
  children: React.ReactNode;
  tone?: "empty" | "error";
  className?: string;
}) {
  return (
    <p className={`notice notice--${tone} ${className}`} role={tone === "error" ? "alert" : "status"}>
      {children}
    </p>
  );
}

/** A list's three states: `failed` when it could not be loaded (null), `empty` when it has nothing, else the items. */
export function ListOrNotice<T>({
  items,
  failed,
  empty,
  children,
}: {
  items: T[] | null;
  failed: React.ReactNode;
  empty: React.ReactNode;
  children: (items: T[]) => React.ReactNode;
}) {
  if (items === null) return <Notice tone="error">{failed}</Notice>;
  if (items.length === 0) return <Notice>{empty}</Notice>;
  return children(items);
}

/** A page whose subject could not be shown: what it is as the heading, why, and maybe a way on (`children`). */
export function FailedPage({ title, error, children }: { title: string; error: React.ReactNode; children?: React.ReactNode }) {
  return (
    <div className="container page-message">
      <h1>{title}</h1>
      <Notice tone="error">{error}</Notice>
      {children}
    </div>
  );
}
