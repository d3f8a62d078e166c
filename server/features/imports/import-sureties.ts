import type { Actor } from "../../access/actor.ts";
import type { Db } from "../../db/client.ts";
import { findOrCreateSuretiesByName } from "../sureties/index.ts";
import type { ImportRow } from "./rows.ts";

const lower = (s: string) => s.trim().toLowerCase();

/** Each bond row's surety, found by name or created (one read and one insert for the file). */
export async function resolveSureties<Row extends ImportRow>(
  tx: Db,
  actor: Actor,
  companyId: string,
  rows: { row: Row }[],
): Promise<Map<Row, { id: string; name: string }>> {
  const bonds = rows.filter(({ row }) => row.recordType === "bond" && row.suretyCompany);
  const { sureties } = await findOrCreateSuretiesByName(tx, actor, companyId, [
    ...new Set(bonds.map(({ row }) => row.suretyCompany!)),
  ]);
  const out = new Map<Row, { id: string; name: string }>();
  for (const { row } of bonds) {
    const surety = sureties.get(lower(row.suretyCompany!));
    if (surety) out.set(row, surety);
  }
  return out;
}
