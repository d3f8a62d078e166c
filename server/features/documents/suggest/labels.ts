import type { SuggestionField } from "../../../../shared/domain/document-reading.ts";
import type { ValueKind } from "./values.ts";

/**
 * The labels that name each field, matched with the OCR's usual slips ("N0.", "Expiratlon", "lssued").
 * `weight` is the confidence of a value right after the label in a clean format; the newer amount
 * of a rider ("New Penal Sum", "increased to") outweighs a plain "Penal Sum".
 */
export type Gate = "rider" | "inspection" | "inspectionReport";

export interface LabelDef {
  field: SuggestionField;
  kind: ValueKind;
  phrases: string[];
  weight: number;
  /** Only in such a document (a rider's effective date, an inspection's result). */
  gate?: Gate;
  /** A word that is also a common word ("Surety", "Result", "Date"): only as a label, i.e. at the start of a
   *  line or followed by a colon, a dash or a column gap. */
  strict?: boolean;
  /** Text right before the label that makes it another label: "Original Penal Sum". */
  notBefore?: RegExp;
  /** Text right after: "Issued By" is the agency, not the issue date. */
  notAfter?: RegExp;
}

const OLD = /\b(?:old|original|previous|prior|former|existing|current|initial)\s*$/i;

export const LABELS: LabelDef[] = [
  { field: "permit_number", kind: "id", weight: 0.95, phrases: ["permit no.", "permit number", "permit #", "permit num.", "permit nbr.", "permit id", "permit no. #"] },
  { field: "permit_number", kind: "id", weight: 0.85, phrases: ["application no.", "application number", "application #", "app. no."] },
  { field: "issue_date", kind: "date", weight: 0.95, phrases: ["date issued", "issue date", "issued on", "date of issue", "issuance date", "date of issuance", "issued date"] },
  { field: "issue_date", kind: "date", weight: 0.9, phrases: ["issued"], notAfter: /^\s*(?:by|to|for|under|in|pursuant|subject|with|as|a|an|the)\b/i },
  { field: "issue_date", kind: "date", weight: 0.85, phrases: ["approved on", "approval date", "date approved"] },
  {
    field: "expiration_date",
    kind: "date",
    weight: 0.95,
    phrases: ["expiration date", "expiration", "expires on", "expires", "expire on", "expiry date", "expiry", "valid through", "valid thru", "valid until", "date of expiration", "exp. date", "good through", "expiration of permit", "continued through", "continued until", "continued to", "extended through", "extended to", "extended until", "renewed through", "renewed until", "continued in force to", "continued in force until", "continued in force through"],
  },
  { field: "agency", kind: "name", weight: 0.9, phrases: ["agency", "agency name", "issued by", "issuing authority", "issuing agency", "issuing office", "issuing department"], notAfter: /^\s*(?:use|only)\b/i },
  { field: "agency", kind: "name", weight: 0.7, phrases: ["obligee"], strict: true },
  { field: "bond_number", kind: "id", weight: 0.95, phrases: ["bond no.", "bond number", "bond #", "bond num.", "bond nbr.", "bond id"] },
  {
    field: "bond_amount",
    kind: "amount",
    weight: 0.97,
    phrases: ["new penal sum", "new bond amount", "revised penal sum", "amended penal sum", "new amount", "increased to", "decreased to", "reduced to", "changed to", "amended to", "new penal amount"],
  },
  { field: "bond_amount", kind: "amount", weight: 0.9, phrases: ["bond amount", "amount of bond", "penal sum", "penal amount", "bond sum", "amount of the bond"], notBefore: OLD },
  { field: "surety_company", kind: "name", weight: 0.9, phrases: ["surety company", "name of surety", "surety name", "surety", "insurer"], strict: true },
  {
    field: "rider_effective_date",
    kind: "date",
    weight: 0.92,
    phrases: ["effective date", "effective as of", "effective on", "date effective", "rider effective date", "effective date of rider", "effective date of this rider", "effective"],
    gate: "rider",
  },
  { field: "inspection_result", kind: "result", weight: 0.92, phrases: ["inspection result", "inspection results", "inspection status", "result", "results", "outcome", "final result", "disposition"], gate: "inspection", strict: true },
  { field: "inspection_result", kind: "result", weight: 0.8, phrases: ["status"], gate: "inspectionReport", strict: true },
  { field: "inspection_date", kind: "date", weight: 0.95, phrases: ["inspection date", "date of inspection", "date inspected", "inspected on", "inspection performed on", "inspection conducted on"] },
  { field: "inspection_date", kind: "date", weight: 0.6, phrases: ["date"], gate: "inspectionReport", strict: true, notBefore: /\b(?:issue|expiration|effective|due|print(?:ed)?|report)\s*$/i },
]; // prettier-ignore

/** OCR's slips inside a label: o ↔ 0 a, i/l ↔ 1 | !, a thin l lost, r ↔ n, m ↔ rn, e ↔ c ("Penmit", "Band
 *  Number", "Vaid Through"). */
const FUZZ: Record<string, string> = {
  o: "[o0a]",
  i: "[il1|!]",
  l: "[l1|i]?",
  r: "[rn]",
  m: "(?:m|rn)",
  e: "[ec]",
  ".": "\\.?",
  "#": "#",
};
const escape = (c: string) => c.replace(/[\\^$.*+?()[\]{}|/]/g, "\\$&");
/** A phrase's pattern: its words with the OCR's slips, then not glued to a following word ("Permit
 *  Notice" is no "Permit No"); a phrase ending in '#' or '.' may touch its value ("Permit #BP-1"). */
const phraseSource = (phrase: string) => {
  const body = phrase
    .split(" ")
    .map((word) => [...word].map((c) => FUZZ[c.toLowerCase()] ?? escape(c)).join(""))
    .join("\\s*");
  if (phrase.endsWith("#")) return body;
  if (phrase.endsWith(".")) return `${body.slice(0, -"\\.?".length)}(?:\\.|(?![A-Za-z]))`;
  return `${body}(?![A-Za-z])`;
};

const COMPILED = LABELS.map((def) => ({
  def,
  re: new RegExp(
    `(?<![A-Za-z0-9])(?:${[...def.phrases]
      .sort((a, b) => b.length - a.length)
      .map(phraseSource)
      .join("|")})`,
    "gi",
  ),
}));

export interface LabelAt {
  def: LabelDef;
  start: number;
  end: number;
}

/**
 * A strict label stands as a label: at the line's start; at a column's start (after a gap of two spaces)
 * followed by a colon, a dash, a gap or the line's end; anywhere followed by a colon. "Western Surety
 * Company" at a line's end is a name, not the label "Surety Company".
 */
function standsAsLabel(line: string, start: number, end: number): boolean {
  const before = line.slice(0, start);
  const after = line.slice(end);
  if (/^\s*$/.test(before)) return true;
  if (/^\s*[:#!;]/.test(after)) return true;
  return /\s{2}$/.test(before) && /^(?:\s*[-–—]|\s{2,}|\s*$)/.test(after);
}

/** The labels on a line, left to right; where two overlap, the one starting first, then the longer. */
export function findLabels(line: string, gates: ReadonlySet<Gate>): LabelAt[] {
  const all: LabelAt[] = [];
  for (const { def, re } of COMPILED) {
    if (def.gate && !gates.has(def.gate)) continue;
    re.lastIndex = 0;
    for (let m = re.exec(line); m; m = re.exec(line)) {
      const start = m.index;
      const end = start + m[0].length;
      if (def.notBefore?.test(line.slice(Math.max(0, start - 24), start))) continue;
      if (def.notAfter?.test(line.slice(end))) continue;
      if (def.strict && !standsAsLabel(line, start, end)) continue;
      all.push({ def, start, end });
    }
  }
  all.sort((a, b) => a.start - b.start || b.end - a.end || b.def.weight - a.def.weight);
  const out: LabelAt[] = [];
  // Sorted by start: a reading overlaps one kept before it if it starts before the furthest end so far.
  let reach = -1;
  for (const l of all)
    if (l.start >= reach) {
      out.push(l);
      reach = l.end;
    }
  return out;
}

/** The document's kind, for the labels that mean something only there. */
export function gatesOf(allText: string): Set<Gate> {
  const t = allText.toLowerCase();
  const gates = new Set<Gate>();
  if (
    /\b(?:rider|continuation|endorsement|change\s+in\s+penal|increase\s+in\s+penal|continued\s+in\s+(?:full\s+)?force)\b/.test(
      t,
    )
  )
    gates.add("rider");
  if (/\b[il1|]nspect/.test(t)) gates.add("inspection");
  if (/\b[il1|]nspection\s+(?:report|record|results?|card|notice|summary|checklist|form|sheet|log)\b/.test(t))
    gates.add("inspectionReport");
  return gates;
}
