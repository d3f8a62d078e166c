import { and, eq, inArray, sql } from "drizzle-orm";
import type { Actor } from "../../access/actor.ts";
import { RESPONSIBLE_ROLES } from "../../access/policies/lifecycle.ts";
import type { Db } from "../../db/client.ts";
import { companies, permits, users } from "../../db/schema.ts";
import { localDateTimeToInstant } from "../../../shared/domain/condition-schedule.ts";
import {
  EVERY_UNIT_LABELS,
  EVERY_UNITS,
  EVIDENCE_KINDS,
  EVIDENCE_LABELS,
  OFFSET_UNIT_LABELS,
  OFFSET_UNITS,
  SCHEDULE_KINDS,
  SCHEDULE_LABELS,
} from "../../../shared/domain/conditions.ts";
import { todayIn } from "../../../shared/domain/dates.ts";
import { ConditionInputSchema } from "../../../shared/schemas/conditions.ts";
import type { ImportResult } from "../../../shared/schemas/imports.ts";
import { addConditions, type NewCondition } from "../conditions/index.ts";
import { CsvError, decodeCsv, normaliseHeader, parseCsv, type CsvLimits, type CsvTable } from "./csv.ts";

// Issue 29: the import's second file, 'Conditions file': one condition per row, naming its permit by
// number (a permit of the main file, else one the company has). Format: README and
// docs/import-conditions.md.

export const CONDITION_COLUMNS = [
  "permit_number",
  "title",
  "description",
  "owner",
  "evidence",
  "schedule",
  "due_date",
  "interval",
  "unit",
  "starting",
  "ends",
  "within",
  "within_unit",
  "milestone",
  "milestone_date",
  "event",
] as const;
type Column = (typeof CONDITION_COLUMNS)[number];
const REQUIRED: Column[] = ["permit_number", "title", "schedule"];

/** A code or its label ("Before an event", "before_event", "Before An Event"); "" → fallback. */
function choice<T extends string>(
  raw: string,
  codes: readonly T[],
  labels: Record<T, string>,
  fallback: T | null,
) {
  if (!raw) return fallback;
  const key = normaliseHeader(raw);
  return codes.find((c) => c === key || normaliseHeader(labels[c]) === key) ?? undefined;
}

/** "2026-12-03 07:00" or "2026-12-03T07:00" as the form's local date-time. */
const localDateTime = (raw: string) =>
  raw.trim().replace(/^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2})(:00)?$/, "$1T$2");

/** The conditions file read as CSV; its faults name it (the main file's name theirs). */
export function conditionsCsv(file: { name: string; bytes: Uint8Array }, limits: CsvLimits) {
  try {
    return parseCsv(decodeCsv(file.bytes, limits), limits);
  } catch (err) {
    if (err instanceof CsvError) throw new CsvError(`Conditions file: ${err.message}`);
    throw err;
  }
}

interface CheckedCondition {
  row: number;
  permitNumber: string;
  ownerEmail: string | null;
  values: Omit<NewCondition, "permitId" | "ownerUserId" | "milestoneAt"> & { milestoneLocal: string | null };
}

function checkRows(table: CsvTable) {
  const index = new Map<Column, number>();
  const known = new Set<string>(CONDITION_COLUMNS);
  table.header.forEach((name, i) => {
    const key = normaliseHeader(name);
    if (known.has(key) && !index.has(key as Column)) index.set(key as Column, i);
  });
  const missing = REQUIRED.filter((c) => !index.has(c));
  if (missing.length)
    throw new CsvError(
      `The conditions file's first row must name the columns; missing: ${missing.join(", ")} (columns: ${CONDITION_COLUMNS.join(", ")}).`,
    );
  const valid: CheckedCondition[] = [];
  const rejected: ImportResult["rejected"] = [];
  for (const { row, fields } of table.rows) {
    const get = (c: Column) => {
      const i = index.get(c);
      return i === undefined ? "" : (fields[i] ?? "").trim();
    };
    const refuse = (reason: string) => rejected.push({ row, reason: `Row ${row}: ${reason}` });
    if (!get("permit_number")) {
      refuse("permit_number is required");
      continue;
    }
    const evidence = choice(get("evidence"), EVIDENCE_KINDS, EVIDENCE_LABELS, "none");
    const schedule = choice(get("schedule"), SCHEDULE_KINDS, SCHEDULE_LABELS, null);
    const unit = choice(get("unit"), EVERY_UNITS, EVERY_UNIT_LABELS, null);
    const offsetUnit = choice(get("within_unit"), OFFSET_UNITS, OFFSET_UNIT_LABELS, null);
    if (evidence === undefined) {
      refuse(`evidence '${get("evidence")}' must be None, File or Photo`);
      continue;
    }
    if (!schedule) {
      refuse(`schedule '${get("schedule")}' must be Once, Every, Before an event or After an event`);
      continue;
    }
    if (unit === undefined) {
      refuse(`unit '${get("unit")}' must be Days, Weeks or Months`);
      continue;
    }
    if (offsetUnit === undefined) {
      refuse(`within_unit '${get("within_unit")}' must be Hours or Days`);
      continue;
    }
    const parsed = ConditionInputSchema.safeParse({
      title: get("title"),
      description: get("description"),
      evidence,
      schedule,
      dueDate: get("due_date"),
      interval: get("interval") || null,
      unit,
      startsOn: get("starting"),
      endsOn: get("ends"),
      offsetAmount: get("within") || null,
      offsetUnit,
      milestoneName: get("milestone"),
      milestoneAt: localDateTime(get("milestone_date")),
      eventKind: get("event"),
    });
    if (!parsed.success) {
      refuse(parsed.error.issues[0]?.message ?? "Invalid condition");
      continue;
    }
    const v = parsed.data;
    const s = v.schedule;
    const event = s === "before_event" || s === "after_event";
    valid.push({
      row,
      permitNumber: get("permit_number"),
      ownerEmail: get("owner").toLowerCase() || null,
      values: {
        title: v.title,
        description: v.description,
        evidence: v.evidence,
        schedule: s,
        dueDate: s === "once" ? v.dueDate : null,
        interval: s === "every" ? (v.interval ?? null) : null,
        unit: s === "every" ? (v.unit ?? null) : null,
        startsOn: s === "every" ? v.startsOn : null,
        endsOn: s === "every" ? v.endsOn : null,
        offsetAmount: event ? (v.offsetAmount ?? null) : null,
        offsetUnit: event ? (v.offsetUnit ?? null) : null,
        milestoneName: s === "before_event" ? v.milestoneName : null,
        milestoneLocal: s === "before_event" ? v.milestoneAt : null,
        eventKind: s === "after_event" ? v.eventKind : null,
      },
    });
  }
  return { valid, rejected };
}

/**
 * Adds the conditions file's rows to their permits in the import's transaction (a dry run rolls it
 * back with the rest): each row's permit is one the main file made or skipped as already there, else
 * the company's one permit of that number; its owner a staff user by e-mail (empty: the permit's
 * responsible person). A bad row is rejected with its row number; the others are added with their
 * first tasks (conditions' addConditions, audited).
 */
export async function importConditions(
  tx: Db,
  actor: Actor,
  companyId: string,
  table: CsvTable,
  madeNow: { id: string; permitNumber: string }[],
): Promise<Omit<NonNullable<ImportResult["conditions"]>, "file_name">> {
  const { valid, rejected } = checkRows(table);
  const fromMainFile = new Map<string, string[]>();
  for (const p of madeNow) {
    const key = p.permitNumber.toLowerCase();
    fromMainFile.set(key, [...(fromMainFile.get(key) ?? []), p.id]);
  }
  const numbers = [...new Set(valid.map((v) => v.permitNumber.toLowerCase()))];
  const emails = [...new Set(valid.flatMap((v) => (v.ownerEmail ? [v.ownerEmail] : [])))];
  const [company] = await tx
    .select({ zone: companies.timeZone })
    .from(companies)
    .where(eq(companies.id, companyId));
  const zone = company?.zone ?? "UTC";
  const existing = numbers.length
    ? await tx
        .select({ id: permits.id, number: permits.permitNumber, closeDate: permits.closeDate })
        .from(permits)
        .where(and(eq(permits.companyId, companyId), inArray(sql`lower(${permits.permitNumber})`, numbers)))
    : [];
  const closed = new Set(existing.filter((p) => p.closeDate).map((p) => p.id));
  const inCompany = new Map<string, string[]>();
  for (const p of existing) {
    const key = p.number.toLowerCase();
    inCompany.set(key, [...(inCompany.get(key) ?? []), p.id]);
  }
  const staff = new Map<string, string>();
  if (emails.length) {
    const rows = await tx
      .select({ id: users.id, email: users.email })
      .from(users)
      .where(
        and(
          eq(users.companyId, companyId),
          eq(users.banned, false),
          inArray(users.role, RESPONSIBLE_ROLES),
          inArray(sql`lower(${users.email})`, emails),
        ),
      );
    for (const r of rows) staff.set(r.email.toLowerCase(), r.id);
  }
  const accepted: { row: CheckedCondition; condition: NewCondition }[] = [];
  for (const c of valid) {
    const key = c.permitNumber.toLowerCase();
    const candidates = fromMainFile.get(key) ?? inCompany.get(key) ?? [];
    const refuse = (reason: string) => rejected.push({ row: c.row, reason: `Row ${c.row}: ${reason}` });
    if (!candidates.length) {
      refuse(`permit_number '${c.permitNumber}' is not a permit of this file or of the company`);
      continue;
    }
    if (candidates.length > 1) {
      refuse(
        `permit_number '${c.permitNumber}' names ${candidates.length} permits; give each a number of its own`,
      );
      continue;
    }
    if (closed.has(candidates[0]!)) {
      refuse(`permit '${c.permitNumber}' is closed`);
      continue;
    }
    const ownerUserId = c.ownerEmail ? staff.get(c.ownerEmail) : null;
    if (ownerUserId === undefined) {
      refuse(`owner '${c.ownerEmail}' is not a staff user of this company`);
      continue;
    }
    const { milestoneLocal, ...values } = c.values;
    accepted.push({
      row: c,
      condition: {
        ...values,
        permitId: candidates[0]!,
        ownerUserId,
        milestoneAt: milestoneLocal ? localDateTimeToInstant(milestoneLocal, zone) : null,
      },
    });
  }
  const added = await addConditions(tx, actor, {
    companyId,
    timeZone: zone,
    today: todayIn(zone),
    conditions: accepted.map((a) => a.condition),
  });
  rejected.sort((a, b) => a.row - b.row);
  return {
    total_rows: table.rows.length,
    added: accepted.slice(0, added.length).map(({ row }) => ({
      row: row.row,
      permit_number: row.permitNumber,
      title: row.values.title,
    })),
    rejected,
  };
}
