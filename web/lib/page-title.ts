import { useEffect } from "react";
import { PRODUCT_NAME } from "../../shared/domain/constants.ts";

/** Sets the browser tab title to "<title> · Permitrack" while the calling page is shown. */
export function usePageTitle(title: string | undefined): void {
  useEffect(() => {
    const previous = document.title;
    document.title = title ? `${title} · ${PRODUCT_NAME}` : PRODUCT_NAME;
    return () => {
      document.title = previous;
    };
  }, [title]);
}
