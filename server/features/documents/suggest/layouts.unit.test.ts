import { describe, expect, it } from "vitest";
import { DATE_SUGGESTION_FIELDS, type SuggestionField } from "../../../../shared/domain/document-reading.ts";
import { LAYOUTS } from "../../../../tests/fixtures/documents/layouts.ts";
import { suggestFields } from "./index.ts";
import { simulateOcr } from "./sample-texts.ts";

/**
 * The fixture set's layouts (tests/fixtures/documents/layouts.ts), as a text layer gives them (a tab
 * between a label and its value read as a gap) and as a poor scan's OCR would (simulateOcr): every
 * expected field found, and no date or amount the layout does not name.
 */
const asText = (lines: string[]) => lines.join("\n");
const asSingleSpaced = (lines: string[]) => lines.map((l) => l.replace(/\t/g, " ")).join("\n");
/** An OCR that read a form's two columns one after the other: a run of "label\tvalue" lines becomes the
 *  labels, a blank line, then the values. */
function asColumnBlocks(lines: string[]): string {
  const out: string[] = [];
  for (let i = 0; i < lines.length;) {
    if (!lines[i]!.includes("\t")) {
      out.push(lines[i++]!);
      continue;
    }
    const run: string[][] = [];
    for (; i < lines.length && lines[i]!.includes("\t"); i++) run.push(lines[i]!.split("\t"));
    out.push(...run.map((r) => r[0]!), "", ...run.map((r) => r.slice(1).join(" ")));
  }
  return out.join("\n");
}

describe.each([
  ["text layer, columns kept", asText, "text"],
  ["text layer, columns run together", asSingleSpaced, "text"],
  ["simulated OCR", simulateOcr, "ocr"],
  ["OCR with the form's columns one after the other", asColumnBlocks, "ocr"],
] as const)("fixture layouts, %s", (_, render, source) => {
  it.each(LAYOUTS.map((l) => [l.name, l] as const))("%s", (_name, layout) => {
    const pages = layout.pages.map((lines, i) => ({ page: i + 1, text: render(lines), source }));
    const got = suggestFields(pages, { dateOrder: layout.dateOrder ?? "MDY" });
    const found = new Map(got.map((s) => [s.field, s]));
    for (const [field, value] of Object.entries(layout.expected) as [SuggestionField, string][])
      expect(found.get(field)?.value, field).toBe(value);
    for (const s of got)
      if (DATE_SUGGESTION_FIELDS.includes(s.field) || s.field === "bond_amount")
        expect(layout.expected[s.field], `${s.field} ${s.value} from "${s.snippet}"`).toBe(s.value);
  });
});
