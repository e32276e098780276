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
