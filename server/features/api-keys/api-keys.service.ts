import { and, desc, eq, isNull } from "drizzle-orm";
import { scopeOf, type Actor } from "../../access/actor.ts";
import { apiKeyCan } from "../../access/policies/api-key.ts";
import { recordEvent } from "../../audit/audit-writer.ts";
import { newApiKey } from "../../auth/api-key-auth.ts";
import type { Db } from "../../db/client.ts";
import { uniqueViolation } from "../../db/errors.ts";
import { apiKeys } from "../../db/schema.ts";
import { conflict, notFound, validation } from "../../errors.ts";
import { addDays } from "../../../shared/domain/dates.ts";
import {
  API_KEY_EXPIRES_PAST,
  API_KEY_NAME_TAKEN,
  type ApiKey,
  type ApiKeyInput,
} from "../../../shared/schemas/api-keys.ts";

export type ApiKeyRow = typeof apiKeys.$inferSelect;

/** The columns a list and a presenter need: never token_hash. */
const listed = {
  id: apiKeys.id,
  companyId: apiKeys.companyId,
  name: apiKeys.name,
  role: apiKeys.role,
  prefix: apiKeys.prefix,
  createdAt: apiKeys.createdAt,
  createdByName: apiKeys.createdByName,
  expiresAt: apiKeys.expiresAt,
  revokedAt: apiKeys.revokedAt,
  lastUsedAt: apiKeys.lastUsedAt,
};
type ListedKey = { [K in keyof typeof listed]: ApiKeyRow[K] };

/** A key of the actor's company (any company's for a super-admin), or 404. */
export async function findVisibleApiKey(db: Db, actor: Actor, id: string): Promise<ListedKey> {
  const { companyId } = scopeOf(actor);
  const [row] = await db
    .select(listed)
    .from(apiKeys)
    .where(and(eq(apiKeys.id, id), companyId ? eq(apiKeys.companyId, companyId) : undefined));
  if (!row) throw notFound("API key");
  return row;
}

/** GET /api/api-keys: the company's keys, newest first, in one statement. */
export async function listApiKeys(db: Db, actor: Actor, requested: string | null): Promise<ApiKey[]> {
  const company = scopeOf(actor).companyId ?? requested;
  const rows = await db
    .select(listed)
    .from(apiKeys)
    .where(company ? eq(apiKeys.companyId, company) : undefined)
    .orderBy(desc(apiKeys.createdAt), apiKeys.id);
  return rows.map((r) => presentApiKey(actor, r));
}

/** The expiry date a key was given: the day before expires_at (which is that day's end, UTC). */
const expiresOn = (expiresAt: Date | null) =>
  expiresAt ? addDays(expiresAt.toISOString().slice(0, 10), -1) : null;

export function presentApiKey(actor: Actor, r: ListedKey, now = new Date()): ApiKey {
  const status = r.revokedAt ? "revoked" : r.expiresAt && r.expiresAt <= now ? "expired" : "active";
  return {
    id: r.id,
    company_id: r.companyId,
    name: r.name,
    role: r.role as ApiKey["role"],
    prefix: r.prefix,
    created_at: r.createdAt.toISOString(),
    created_by_name: r.createdByName,
    expires_on: expiresOn(r.expiresAt),
    last_used_at: r.lastUsedAt?.toISOString() ?? null,
    revoked_at: r.revokedAt?.toISOString() ?? null,
    status,
    can: apiKeyCan(actor, r),
  };
}

/**
 * 'Create API Key': a new key, its hash stored, its value answered this once (and never logged or
 * audited). Audited with its name, role and prefix.
 */
export async function createApiKey(
  db: Db,
  actor: Actor,
  companyId: string,
  input: ApiKeyInput,
): Promise<{ row: ListedKey; key: string }> {
  const today = new Date().toISOString().slice(0, 10);
  if (input.expires_on && input.expires_on < today) throw validation({ expires_on: API_KEY_EXPIRES_PAST });
  const { key, tokenHash, prefix } = newApiKey();
  try {
    return await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(apiKeys)
        .values({
          companyId,
          name: input.name,
          role: input.role,
          prefix,
          tokenHash,
          createdBy: actor.userId,
          createdByName: actor.name,
          expiresAt: input.expires_on ? new Date(`${addDays(input.expires_on, 1)}T00:00:00Z`) : null,
        })
        .returning(listed);
      await recordEvent(tx, actor, {
        action: "api_key.create",
        entityType: "api_key",
        entityId: row!.id,
        companyId,
        details: { name: row!.name, role: row!.role, prefix, expires_on: input.expires_on },
      });
      return { row: row!, key };
    });
  } catch (err) {
    if (uniqueViolation(err) === "api_keys_company_name_uq")
      throw conflict(API_KEY_NAME_TAKEN, { name: API_KEY_NAME_TAKEN });
    throw err;
  }
}

/** 'Revoke': the key answers 401 from the next request on; 409 when it was revoked already. */
export async function revokeApiKey(db: Db, actor: Actor, key: ListedKey): Promise<ListedKey> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(apiKeys)
      .set({ revokedAt: new Date() })
      .where(and(eq(apiKeys.id, key.id), isNull(apiKeys.revokedAt)))
      .returning(listed);
    if (!row) throw conflict("This API key is already revoked.");
    await recordEvent(tx, actor, {
      action: "api_key.revoke",
      entityType: "api_key",
      entityId: row.id,
      companyId: row.companyId,
      details: { name: row.name, prefix: row.prefix },
    });
    return row;
  });
}
