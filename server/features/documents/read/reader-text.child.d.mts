// Types of reader-text.child.mjs (plain JavaScript for the reader's child process) for its tests.
export function normalisePageText(text: string): string;
export function linesFromTextItems(
  items: Array<{ str?: string; transform: number[]; width: number; height?: number }>,
): string;
export function meaningfulCharacters(text: string): number;
