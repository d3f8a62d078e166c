/** A calendar date ("YYYY-MM-DD") in the browser's locale, or a dash when there is none. */
export function formatDate(iso: string | null | undefined): string {
  if (!iso) return "—";
  const [y, m, d] = iso.split("-").map(Number);
  return new Date(y!, m! - 1, d!).toLocaleDateString();
}

export const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
