import { z } from "zod";
import { CURRENCY_PATTERN } from "../domain/bonds.ts";
import { isValidTimeZone } from "../domain/dates.ts";
import { DATE_ORDERS } from "../domain/document-reading.ts";
import { blankableText, nonBlankText, text } from "./fields.ts";

/** Lowercase letters, digits and single hyphens between them: it appears in URLs and file names. */
export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** Turns a company name into a slug suggestion ("Acme Builders, Inc." -> "acme-builders-inc"). */
export function slugify(name: string): string {
  return name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60)
    .replace(/-+$/, "");
}

/** A web address; "example.com" is accepted and stored as typed (the footer adds https://). */
const WebsiteSchema = text(300)
  .refine((v) => v === "" || isWebAddress(v), { message: "Enter a valid website address" })
  .optional()
  .default("");

function isWebAddress(value: string): boolean {
  const candidate = /^[a-z][a-z0-9+.-]*:/i.test(value) ? value : `https://${value}`;
  try {
    const url = new URL(candidate);
    return (url.protocol === "http:" || url.protocol === "https:") && url.hostname.includes(".");
  } catch {
    return false;
  }
}

/** An ISO 4217 currency code ("usd" is taken as "USD"); "" means unchanged (or the default). */
export const CurrencySchema = z
  .string()
  .trim()
  .transform((v) => v.toUpperCase())
  .refine((v) => v === "" || CURRENCY_PATTERN.test(v), {
    message: "Currency must be a 3-letter ISO 4217 code (e.g. USD)",
  });

/** The company form and the body of POST/PUT /api/companies. Empty optional fields are stored as null. */
export const CompanyInputSchema = z.object({
  name: nonBlankText(200, "Name"),
  slug: nonBlankText(60, "Slug").regex(SLUG_PATTERN, {
    message: "Use lowercase letters, digits and hyphens only",
  }),
  address: blankableText(300),
  phone: blankableText(50),
  website: WebsiteSchema,
  contactName: blankableText(200),
  contactEmail: text(254)
    .refine((v) => v === "" || z.email().safeParse(v).success, { message: "Enter a valid email address" })
    .optional()
    .default(""),
  /** IANA zone; empty on create means the server's default (config DEFAULT_TIME_ZONE). */
  timeZone: text(64)
    .refine((v) => v === "" || isValidTimeZone(v), { message: "Choose a valid time zone" })
    .optional()
    .default(""),
  /**
   * 'Require two-factor sign-in' for the company's staff. Left out: off for a new company, unchanged
   * on an update (a client that does not know the setting must not switch it off).
   */
  requireTwoFactor: z.boolean().optional(),
  /** ISO 4217 code of the company's amounts (bonds). Left out or empty: USD on create, unchanged on update. */
  currency: CurrencySchema.optional(),
  /**
   * 'Date Order' (issue 28): how the company writes a numeric date, so the document reader reads
   * 03/04/2026 as March 4 ('MDY') or 3 April ('DMY'). Left out: MDY on create, unchanged on update.
   */
  dateOrder: z.enum(DATE_ORDERS, { message: "Date Order must be MDY or DMY" }).optional(),
});
export type CompanyInput = z.input<typeof CompanyInputSchema>;
export type CompanyInputParsed = z.output<typeof CompanyInputSchema>;

export const CompanyCountsSchema = z.object({
  users: z.number().int(),
  clients: z.number().int(),
  projects: z.number().int(),
  permits: z.number().int(),
});
export type CompanyCounts = z.infer<typeof CompanyCountsSchema>;

export const CompanySchema = z.object({
  id: z.uuid(),
  name: z.string(),
  slug: z.string(),
  address: z.string().nullable(),
  phone: z.string().nullable(),
  website: z.string().nullable(),
  contactName: z.string().nullable(),
  contactEmail: z.string().nullable(),
  timeZone: z.string(),
  requireTwoFactor: z.boolean(),
  /** ISO 4217 (default USD). */
  currency: z.string(),
  dateOrder: z.enum(DATE_ORDERS),
  logoUrl: z.string().nullable(),
  createdAt: z.string(),
  /** What a delete would remove with the company. */
  counts: CompanyCountsSchema,
  can: z.object({ edit: z.boolean(), delete: z.boolean() }),
});
export type Company = z.infer<typeof CompanySchema>;

export const CompanyListSchema = z.object({
  companies: z.array(CompanySchema),
  /** The time zone a new company gets when the form leaves it empty. */
  defaultTimeZone: z.string(),
  can: z.object({ create: z.boolean() }),
});
export type CompanyList = z.infer<typeof CompanyListSchema>;

export const LOGO_CONTENT_TYPES = ["image/png", "image/jpeg", "image/webp"] as const;
export type LogoContentType = (typeof LOGO_CONTENT_TYPES)[number];
