import type { DateOrder } from "../../../shared/domain/document-reading.ts";
import { DEFAULT_CURRENCY } from "../../../shared/domain/bonds.ts";
import { Readable } from "node:stream";
import { and, asc, eq, isNull, sql } from "drizzle-orm";
import { scopeConditions, scopeOf, type Actor } from "../../access/actor.ts";
import { companyCan } from "../../access/policies/company.ts";
import { queryRows, type Db } from "../../db/client.ts";
import { uniqueViolation } from "../../db/errors.ts";
import { companies, companyPreferences } from "../../db/schema.ts";
import { AppError, conflict, notFound } from "../../errors.ts";
import { isWellFormedPng } from "../../storage/png-check.ts";
import type { Storage } from "../../storage/storage.ts";
import type { Company, CompanyInputParsed, LogoContentType } from "../../../shared/schemas/companies.ts";
import { recordEvent } from "../../audit/audit-writer.ts";
import { companyLogoUrl } from "./logo-url.ts";

type CompanyRow = typeof companies.$inferSelect;
type CompanyWithCounts = CompanyRow & { counts: Company["counts"] };

const SLUG_TAKEN = "This slug is already used by another company.";

// Everything a company delete removes with it, counted where the rows are. Written out in full:
// drizzle leaves columns unqualified in a one-table select, which a subquery would misread.
const countOf = (table: string) =>
  sql<number>`(select count(*)::int from ${sql.raw(table)} t where t.company_id = companies.id)`;
const countsColumns = {
  users: countOf("users"),
  clients: countOf("clients"),
  projects: countOf("projects"),
  permits: countOf("permits"),
};

function selectCompanies(db: Db) {
  return db.select({ company: companies, ...countsColumns }).from(companies);
}

function withCounts(row: { company: CompanyRow } & Company["counts"]): CompanyWithCounts {
  const { company, ...counts } = row;
  return {
    ...company,
    counts: {
      users: Number(counts.users),
      clients: Number(counts.clients),
      projects: Number(counts.projects),
      permits: Number(counts.permits),
    },
  };
}

// A company is seen by its own users, whatever their role (the header shows its logo); the
// client-user's client list does not apply to the company record itself.
const companyScope = (actor: Actor) =>
  scopeConditions({ companyId: scopeOf(actor).companyId, clientIds: null }, { companyId: companies.id });

/** The companies the actor may see: all for a super-admin, its own for everyone else. */
export async function listCompanies(db: Db, actor: Actor): Promise<CompanyWithCounts[]> {
  const rows = await selectCompanies(db)
    .where(companyScope(actor))
    .orderBy(asc(sql`lower(${companies.name})`), asc(companies.id));
  return rows.map(withCounts);
}

/** A company within the actor's scope, or 404: another company is indistinguishable from a missing one. */
export async function findVisibleCompany(db: Db, actor: Actor, id: string): Promise<CompanyWithCounts> {
  const [row] = await selectCompanies(db).where(and(eq(companies.id, id), companyScope(actor)));
  if (!row) throw notFound("Company");
  return withCounts(row);
}

/** The API's view of a company, with what the actor may do to it. */
export function presentCompany(actor: Actor, c: CompanyWithCounts): Company {
  return {
    id: c.id,
    name: c.name,
    slug: c.slug,
    address: c.address,
    phone: c.phone,
    website: c.website,
    contactName: c.contactName,
    contactEmail: c.contactEmail,
    timeZone: c.timeZone,
    requireTwoFactor: c.requireTwoFactor,
    currency: c.currency,
    dateOrder: c.dateOrder as DateOrder,
    logoUrl: companyLogoUrl(c),
    createdAt: c.createdAt.toISOString(),
    counts: c.counts,
    can: companyCan(actor, c),
  };
}

const nullIfEmpty = (v: string) => (v === "" ? null : v);

function columnsOf(input: CompanyInputParsed) {
  return {
    name: input.name,
    slug: input.slug,
    address: nullIfEmpty(input.address),
    phone: nullIfEmpty(input.phone),
    website: nullIfEmpty(input.website),
    contactName: nullIfEmpty(input.contactName),
    contactEmail: nullIfEmpty(input.contactEmail.toLowerCase()),
  };
}

function slugConflict(err: unknown): never {
  if (uniqueViolation(err) === "companies_slug_unique") throw conflict(SLUG_TAKEN, { slug: SLUG_TAKEN });
  throw err;
}

/** Creates a company with its default reminder preferences (spec section 9: all on). */
export async function createCompany(
  db: Db,
  actor: Actor,
  input: CompanyInputParsed,
  defaultTimeZone: string,
) {
  try {
    return await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(companies)
        .values({
          ...columnsOf(input),
          timeZone: input.timeZone || defaultTimeZone,
          requireTwoFactor: input.requireTwoFactor ?? false,
          currency: input.currency || DEFAULT_CURRENCY,
          dateOrder: input.dateOrder ?? "MDY",
        })
        .returning();
      await tx.insert(companyPreferences).values({ companyId: row!.id }).onConflictDoNothing();
      await recordEvent(tx, actor, {
        action: "company.create",
        entityType: "company",
        entityId: row!.id,
        companyId: row!.id,
        details: { name: row!.name, slug: row!.slug },
      });
      return row!.id;
    });
  } catch (err) {
    slugConflict(err);
  }
}

/**
 * Replaces a company's fields; an empty time zone, no two-factor setting or no currency keeps the
 * current one.
 */
export async function updateCompany(db: Db, actor: Actor, current: CompanyRow, input: CompanyInputParsed) {
  const values = {
    ...columnsOf(input),
    timeZone: input.timeZone || current.timeZone,
    requireTwoFactor: input.requireTwoFactor ?? current.requireTwoFactor,
    currency: input.currency || current.currency,
    dateOrder: input.dateOrder ?? current.dateOrder,
  };
  const changed = (Object.keys(values) as (keyof typeof values)[]).filter((k) => values[k] !== current[k]);
  try {
    await db.transaction(async (tx) => {
      await tx.update(companies).set(values).where(eq(companies.id, current.id));
      if (changed.length) {
        await recordEvent(tx, actor, {
          action: "company.update",
          entityType: "company",
          entityId: current.id,
          companyId: current.id,
          details: { fields: changed },
        });
      }
    });
  } catch (err) {
    slugConflict(err);
  }
}

/**
 * Deletes a company and, through the foreign keys' cascades, everything it owns (users and their
 * sessions, clients, projects, permits, files' records, settings, its audit). One statement in one
 * transaction: it all goes or nothing does. The event is recorded without a company, so that it
 * survives the cascade.
 */
export async function deleteCompany(db: Db, storage: Storage, actor: Actor, company: CompanyWithCounts) {
  const storedKeys = await queryStorageKeys(db, company.id);
  await db.transaction(async (tx) => {
    await tx.delete(companies).where(eq(companies.id, company.id));
    await recordEvent(tx, actor, {
      action: "company.delete",
      entityType: "company",
      entityId: company.id,
      companyId: null,
      details: { name: company.name, slug: company.slug, removed: company.counts },
    });
  });
  // Files go after the commit: a failed delete must not lose them, and a leftover file is harmless.
  await Promise.all(storedKeys.map((key) => storage.remove(key).catch(() => undefined)));
}

async function queryStorageKeys(db: Db, companyId: string): Promise<string[]> {
  const rows = await queryRows<{ key: string }>(
    db,
    sql`select logo_key as key from companies where id = ${companyId} and logo_key is not null
        union all
        select storage_key as key from attachments where company_id = ${companyId}
        union all
        -- an outside party's upload not (yet) an attachment (issue 27); an approved one is among the attachments
        select storage_key as key from request_files where company_id = ${companyId} and attachment_id is null`,
  );
  return rows.map((r) => r.key);
}

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/**
 * The image type the bytes really are (PNG, JPEG or WebP), whatever the file was called. A PNG must
 * be well-formed too (server/storage/png-check.ts: the compliance packet draws it).
 */
export function sniffLogo(bytes: Buffer): LogoContentType | null {
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(PNG))
    return isWellFormedPng(bytes) ? "image/png" : null;
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return "image/jpeg";
  if (
    bytes.length >= 12 &&
    bytes.toString("latin1", 0, 4) === "RIFF" &&
    bytes.toString("latin1", 8, 12) === "WEBP"
  ) {
    return "image/webp";
  }
  return null;
}

/** Stores a new logo (already read and size-checked) and replaces the old one. */
export async function replaceLogo(
  db: Db,
  storage: Storage,
  actor: Actor,
  company: CompanyRow,
  bytes: Buffer,
) {
  const contentType = sniffLogo(bytes);
  if (!contentType) {
    throw new AppError(415, "UNSUPPORTED_MEDIA_TYPE", "The logo must be a PNG, JPEG or WebP image.", {
      file: "The logo must be a PNG, JPEG or WebP image.",
    });
  }
  const stored = await storage.put(`companies/${company.id}/logos`, Readable.from(bytes), bytes.length);
  const key = stored.key;
  try {
    await db.transaction(async (tx) => {
      await tx
        .update(companies)
        .set({ logoKey: key, logoContentType: contentType, logoSha256: stored.sha256, logoSize: stored.size })
        .where(eq(companies.id, company.id));
      await recordEvent(tx, actor, {
        action: "company.logo",
        entityType: "company",
        entityId: company.id,
        companyId: company.id,
        details: { contentType, size: bytes.length },
      });
    });
  } catch (err) {
    await storage.remove(key);
    throw err;
  }
  if (company.logoKey) await storage.remove(company.logoKey).catch(() => undefined);
}

/** Removes the company's logo; the header falls back to the product logo. */
export async function removeLogo(db: Db, storage: Storage, actor: Actor, company: CompanyRow) {
  if (!company.logoKey) return;
  await db.transaction(async (tx) => {
    await tx
      .update(companies)
      .set({ logoKey: null, logoContentType: null, logoSha256: null, logoSize: null })
      .where(eq(companies.id, company.id));
    await recordEvent(tx, actor, {
      action: "company.logo.remove",
      entityType: "company",
      entityId: company.id,
      companyId: company.id,
    });
  });
  await storage.remove(company.logoKey).catch(() => undefined);
}

/** Records the SHA-256 and size of a logo stored before issue 26, computed by its first read. */
export async function recordLogoDigest(
  db: Db,
  company: { id: string; logoKey: string },
  digest: { size: number; sha256: string },
): Promise<void> {
  await db
    .update(companies)
    .set({ logoSha256: digest.sha256, logoSize: digest.size })
    .where(
      and(eq(companies.id, company.id), eq(companies.logoKey, company.logoKey), isNull(companies.logoSha256)),
    );
}
