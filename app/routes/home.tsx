// /home is the same screen as / (docs/web.md §2).
export { loader, meta, default } from "./_index.tsx";
