import { useEffect, useState } from "react";

/** False in the server render and until the browser has run React; true afterwards. */
export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}
