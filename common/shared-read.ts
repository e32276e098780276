const ended = () => undefined;

/**
 * One call answering every caller that arrived before it was sent: under load, the data version is asked for once
 * per round trip instead of once per request (from Redis by the API, from the API by the web server's page cache).
 *
 * A caller never shares a call that was sent before it arrived, since that call could miss a write answered in
 * between. It waits for the call in flight to end and joins the next one. So every answer is at least as new as its
 * caller's arrival, which is what "an answered write is never followed by an older answer" needs.
 */
export function sharedRead<T>(read: () => Promise<T>): () => Promise<T> {
  let inFlight: Promise<T> | null = null;
  let next: Promise<T> | null = null;

  function send(): Promise<T> {
    const call = read();
    inFlight = call;
    const settled = () => {
      if (inFlight === call) inFlight = null;
    };
    void call.then(settled, settled);
    return call;
  }

  return () => {
    if (!inFlight) return send();
    next ??= inFlight.then(ended, ended).then(() => {
      next = null;
      return send();
    });
    return next;
  };
}
