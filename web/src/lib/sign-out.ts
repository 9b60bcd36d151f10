import { useState } from "react";
import { api } from "./api.ts";

// Apart from the other mutations (lib/mutations.ts), and without react-query's mutation observer: the layout signs
// out on every page, and either would otherwise be part of the first page load (issue 27's 100 kB gzip budget).

/**
 * Never fails: already signed out or offline, the session cookie is useless either way. `onSignedOut` runs even
 * if a 401 (an already expired session) has closed the page that asked: it is called when the request settles,
 * whether or not the layout is still mounted.
 */
export function useSignOut(onSignedOut: () => void): { mutate: () => void; isPending: boolean } {
  const [isPending, setPending] = useState(false);
  const mutate = () => {
    setPending(true);
    void api
      .post("/logout")
      .then(
        () => undefined,
        () => undefined,
      )
      .then(() => {
        setPending(false);
        onSignedOut();
      });
  };
  return { mutate, isPending };
}
