import { Form, useLocation, useSubmit } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { SearchIcon } from "./icons.tsx";

/** Search debounce of docs/web.md §11. */
export const SEARCH_DEBOUNCE_MS = 500;

/**
 * A GET form: submitting searches at once (and without JavaScript); typing searches after
 * 500 ms of quiet. Either way the page goes back to 1, as the form carries only the text.
 */
export function SearchBox({
  label,
  placeholder,
  value,
  param = "q",
  id = "search",
  keep = {},
}: {
  label: string;
  placeholder: string;
  value: string;
  param?: string;
  id?: string;
  /** Other parameters the search keeps (the series list's filters), sent as hidden fields. */
  keep?: Record<string, string | readonly string[]>;
}) {
  const submit = useSubmit();
  const { pathname } = useLocation();
  const timer = useRef<ReturnType<typeof setTimeout>>();
  const input = useRef<HTMLInputElement>(null);

  // Back/forward changes the query: show it, unless the user is typing.
  useEffect(() => {
    if (input.current && document.activeElement !== input.current) input.current.value = value;
  }, [value]);
  useEffect(() => () => clearTimeout(timer.current), []);

  const run = (form: HTMLFormElement) => {
    const text = new FormData(form).get(param);
    // An empty search is no search: back to the plain list.
    if (typeof text === "string" && text.trim() === "" && Object.keys(keep).length === 0)
      submit(null, { action: pathname, method: "get", replace: true, preventScrollReset: true });
    else submit(form, { replace: true, preventScrollReset: true });
  };

  return (
    <Form
      method="get"
      role="search"
      className="search"
      onChange={(e) => {
        const form = e.currentTarget;
        clearTimeout(timer.current);
        timer.current = setTimeout(() => run(form), SEARCH_DEBOUNCE_MS);
      }}
      onSubmit={(e) => {
        e.preventDefault();
        clearTimeout(timer.current);
        run(e.currentTarget);
      }}
    >
      <label htmlFor={id} className="visually-hidden">
        {label}
      </label>
      {Object.entries(keep).flatMap(([name, v]) =>
        (typeof v === "string" ? [v] : v).map((value) => <input key={`${name}=${value}`} type="hidden" name={name} value={value} />),
      )}
      <SearchIcon className="icon search__icon" />
      <input
        ref={input}
        id={id}
        type="search"
        name={param}
        defaultValue={value}
        placeholder={placeholder}
        autoComplete="off"
        maxLength={200}
      />
      <button type="submit" className="button button--primary">
        Search
      </button>
    </Form>
  );
}
