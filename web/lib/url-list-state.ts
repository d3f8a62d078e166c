import { useEffect, useState } from "react";
import { useSearchParams } from "react-router";

/** The page sizes a paged admin list offers ('Per page'). */
export const LIST_PAGE_SIZES = [25, 50, 100];

/** `value`, once it has stopped changing for `ms` (a search box's text, sent once typing pauses). */
export function useDebounced(value: string, ms = 300) {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return debounced;
}

/**
 * A paged list whose filters live in the URL (the Contacts and Requests pages): `page` and
 * `size`, a search box whose debounced text becomes the `searchKey` parameter, `setParam` (an
 * empty value removes the parameter; a change other than the page goes back to the first page) and
 * `clear` (every filter off).
 */
export function useUrlListState(searchKey: string) {
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Number(params.get("page")) || 1);
  const size = Number(params.get("size"));
  const pageSize = LIST_PAGE_SIZES.includes(size) ? size : 50;
  const [search, setSearch] = useState(params.get(searchKey) ?? "");
  const debounced = useDebounced(search.trim());

  const setParam = (changes: Record<string, string>) =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        for (const [k, v] of Object.entries(changes)) {
          if (v) next.set(k, v);
          else next.delete(k);
        }
        if (!("page" in changes)) next.delete("page");
        return next;
      },
      { replace: true },
    );
  useEffect(() => {
    if ((params.get(searchKey) ?? "") !== debounced) setParam({ [searchKey]: debounced });
    // Only the debounced text moves the URL.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [debounced]);

  const clear = () => {
    setSearch("");
    setParams(new URLSearchParams(), { replace: true });
  };
  return { params, page, pageSize, search, setSearch, setParam, clear };
}
