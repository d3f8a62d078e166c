import { z } from "zod";
import { MONEY_PATTERN } from "../domain/bonds.ts";
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from "../domain/constants.ts";
import { isIsoDate } from "../domain/dates.ts";
import { SORT_DIRECTIONS } from "../domain/permit-list.ts";

/**
 * The field vocabulary every request schema is built from: text, dates, amounts, ids and a list's
 * query string, each written once. One wording:
 *
 * - A labelled field names itself: "<Label> is required", "<Label> must be at most N characters",
 *   "<Label>: Must be a valid date (YYYY-MM-DD)", "<Label> cannot be negative", "<Label> must be a
 *   number with at most 2 decimals", "<Label> must be more than 0".
 * - An unlabelled one says what messages.ts says ("Must be at most N characters", "Must be a valid
 *   date (YYYY-MM-DD)", "Must be a valid id"); the server prefixes the field's name.
 *
 * Some fields keep an older wording the spec or the tests rely on; the builders' options say which.
 */

export const DATE_MESSAGE = "Must be a valid date (YYYY-MM-DD)";
export const ID_MESSAGE = "Must be a valid id";
export const requiredMessage = (label: string) => `${label} is required`;
export const tooLongMessage = (label: string, max: number) => `${label} must be at most ${max} characters`;

/** An optional field left empty: "", null and missing all become null. */
const emptyAsNull = <T>(v: T | null | undefined) => (v ? v : null);

// ---------------------------------------------------------------------------------------------
// Text

/** Trimmed text with a length cap, unlabelled; "" stays "" (see nonBlankText for required). */
export const text = (max: number) =>
  z
    .string()
    .trim()
    .max(max, { message: `Must be at most ${max} characters` });

/** text() that must not be empty: "<Label> is required" (the cap's message stays unlabelled). */
export const nonBlankText = (max: number, label: string) =>
  text(max).min(1, { message: requiredMessage(label) });

/** text() that may be left out: missing becomes "" (the admin forms' optional fields). */
export const blankableText = (max: number) => text(max).optional().default("");

/**
 * Required text: trimmed, not empty, at most `max` characters. A value missing or not text also
 * gets "<Label> is required", unless `typeMessage: false` leaves those to messages.ts ("Required",
 * "Must be a text").
 */
export const requiredText = (label: string, max: number, o: { typeMessage?: boolean } = {}) =>
  (o.typeMessage === false ? z.string() : z.string({ message: requiredMessage(label) }))
    .trim()
    .min(1, { message: requiredMessage(label) })
    .max(max, { message: tooLongMessage(label, max) });

/** Optional text: trimmed, at most `max` characters; missing, null and blank all become null. */
export const optionalText = (label: string, max: number) =>
  z
    .string()
    .trim()
    .max(max, { message: tooLongMessage(label, max) })
    .nullish()
    .transform(emptyAsNull);

// ---------------------------------------------------------------------------------------------
// Dates ("YYYY-MM-DD" that exist: 2025-02-30 is refused)

/**
 * A date as sent (not trimmed), unlabelled. With `required`, a missing or empty value says
 * "<required> is required" (the permit form's Expiration Date); else messages.ts says "Required".
 */
export const isoDate = (o: { required?: string } = {}) =>
  o.required
    ? z
        .string({ message: requiredMessage(o.required) })
        .min(1, { message: requiredMessage(o.required) })
        .refine(isIsoDate, { message: DATE_MESSAGE })
    : z.string().refine(isIsoDate, { message: DATE_MESSAGE });

/** isoDate() that may be left empty: "", null and missing become null. */
export const optionalIsoDate = () =>
  z
    .union([isoDate(), z.literal(""), z.null()])
    .optional()
    .transform(emptyAsNull);

/** A dialog's required date: trimmed, "<Label> is required", "<Label>: Must be a valid date (YYYY-MM-DD)". */
export const requiredDate = (label: string) =>
  z
    .string({ message: requiredMessage(label) })
    .trim()
    .min(1, { message: requiredMessage(label) })
    .refine(isIsoDate, { message: `${label}: ${DATE_MESSAGE}` });

/** A dialog's optional date: trimmed and labelled as requiredDate(); "", null and missing become null. */
export const optionalDate = (label: string) =>
  z
    .union([
      z
        .string()
        .trim()
        .refine((v) => v === "" || isIsoDate(v), { message: `${label}: ${DATE_MESSAGE}` }),
      z.null(),
    ])
    .optional()
    .transform(emptyAsNull);

// ---------------------------------------------------------------------------------------------
// Amounts: strings with at most two decimals ("25000.00"); numbers and "25,000" are taken too

/** An amount as typed: "" for missing, thousands separators dropped. */
export const rawAmount = (v: unknown) =>
  v === null || v === undefined ? "" : String(v).trim().replace(/,/g, "");

export interface MoneyOptions {
  /** Missing or blank: "<Label> is required" (else null). */
  required?: boolean;
  /** A leading minus allowed (a Rider's decrease). */
  signed?: boolean;
  /** 0 refused: "<Label> must be more than 0". */
  positive?: boolean;
  /** Digits before the point (default 12: numeric(14,2)). */
  digits?: number;
  /** One message for a negative or malformed amount, instead of the two labelled ones. */
  message?: string;
}

/** An amount field; see MoneyOptions. Missing or blank is null unless `required`. */
export const money = (label: string, o: MoneyOptions = {}) => {
  const pattern = o.digits ? new RegExp(`^-?\\d{1,${o.digits}}(\\.\\d{1,2})?$`) : MONEY_PATTERN;
  return z
    .union([z.string(), z.number(), z.null()])
    .optional()
    .transform((v, ctx) => {
      const s = rawAmount(v);
      if (!s) {
        if (o.required) {
          ctx.addIssue({ code: "custom", message: requiredMessage(label) });
          return z.NEVER;
        }
        return null;
      }
      if (!o.signed && /^-\d/.test(s) && !Number.isNaN(Number(s))) {
        ctx.addIssue({ code: "custom", message: o.message ?? `${label} cannot be negative` });
        return z.NEVER;
      }
      if (!pattern.test(s)) {
        ctx.addIssue({
          code: "custom",
          message: o.message ?? `${label} must be a number with at most 2 decimals`,
        });
        return z.NEVER;
      }
      if (o.positive && Number(s) <= 0) {
        ctx.addIssue({ code: "custom", message: `${label} must be more than 0` });
        return z.NEVER;
      }
      return s;
    });
};

/** A required amount (never null after parsing). */
export const requiredMoney = (label: string, o: Omit<MoneyOptions, "required"> = {}) =>
  money(label, { ...o, required: true }) as unknown as z.ZodType<string, string | number>;

// ---------------------------------------------------------------------------------------------
// Ids

/** A uuid; `message` when it is not one (default "Must be a valid id"). */
export const uuid = (message = ID_MESSAGE) => z.uuid({ message });

/** An optional id: a uuid, or "", null or missing for none (null). */
export const optionalId = (message = ID_MESSAGE) =>
  z
    .union([uuid(message), z.literal(""), z.null()])
    .optional()
    .transform(emptyAsNull);

// ---------------------------------------------------------------------------------------------
// A list's query string, as its page keeps it in the URL ("" for an emptied field)

const ANY_UUID = z.uuid();
/** True for a uuid. */
export const isUuid = (v: string) => ANY_UUID.safeParse(v).success;

/** An id filter: a uuid, or "" or missing for none (null). `also`: other words it takes ("none", "me"). */
export const filterId = (o: { also?: readonly string[]; message?: string } = {}) =>
  z
    .string()
    .refine((v) => v === "" || (o.also ?? []).includes(v) || isUuid(v), { message: o.message ?? ID_MESSAGE })
    .optional()
    .transform(emptyAsNull);

/** One of `values`, or "" or missing for none (null). */
export const optionalChoice = <const T extends readonly [string, ...string[]]>(values: T, message: string) =>
  z
    .enum(["", ...values] as unknown as readonly ["", ...T], { message })
    .optional()
    .transform((v) => (v ? (v as T[number]) : null));

/** Trimmed text of a filter or the search box, capped; blank or missing is null. */
export const filterText = (max: number) => text(max).optional().transform(emptyAsNull);

/** A date filter: "" or missing for none (null); "<Label>: Must be a valid date (YYYY-MM-DD)". */
export const filterDate = (label: string) =>
  z
    .union([z.string().refine(isIsoDate, { message: `${label}: ${DATE_MESSAGE}` }), z.literal("")])
    .optional()
    .transform(emptyAsNull);

/** The sort direction of a list (default ascending). */
export const sortDirection = () => z.enum(SORT_DIRECTIONS, { message: "Must be asc or desc" }).default("asc");

/** A list's page (from 1) and page size, from the query string's text. */
export const pageFields = () => ({
  page: z.coerce.number({ message: "Must be a page number" }).int().min(1).max(100_000).default(1),
  page_size: z.coerce
    .number({ message: "Must be a number" })
    .int()
    .min(1)
    .max(MAX_PAGE_SIZE)
    .default(DEFAULT_PAGE_SIZE),
});

/** An export's file format (default CSV). */
export const exportFormat = () => z.enum(["csv", "xlsx"], { message: "Must be csv or xlsx" }).default("csv");
