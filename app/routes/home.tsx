// /home is the same screen as / (spec section 2).
export { loader, meta, default } from "./_index.tsx";
