import { eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { choosesCompany, COMPANY_MISSING, targetCompanyId } from "../../access/actor.ts";
import { canImportPermits } from "../../access/policies/import.ts";
import { actorOf } from "../../auth/plugin.ts";
import { companies } from "../../db/schema.ts";
import { AppError, authorize, notFound, validation } from "../../errors.ts";
import { CSV_TEMPLATE_COLUMNS } from "../../../shared/domain/constants.ts";
import { errorResponses } from "../../../shared/schemas/common.ts";
import { ImportQuerySchema, ImportResultSchema } from "../../../shared/schemas/imports.ts";
import { CsvError, DEFAULT_CSV_LIMITS } from "./csv.ts";
import { importPermits } from "./imports.service.ts";
import { hasUnstorableText, UNSTORABLE_TEXT_MESSAGE } from "../../../shared/domain/text.ts";

const errors = errorResponses(400, 401, 403, 404, 413);
const UUID = z.uuid();

/** One example row under the template's columns (spec section 9). */
const TEMPLATE_EXAMPLE: Record<(typeof CSV_TEMPLATE_COLUMNS)[number], string> = {
  project: "Riverside Apartments",
  start_date: "2026-01-15",
  project_number: "RA-2026-001",
  project_name: "Riverside Apartments",
  phase: "Construction",
  aka: "",
  client: "Riverside Apartments LLC",
  permit_number: "BP-2026-0042",
  agency: "City Building Dept.",
  permit_name: "Building Permit",
  application_date: "2026-01-20",
  status: "Required",
  issue_date: "",
  expiration_date: "2027-01-20",
  record_type: "permit",
  grantor_link: "https://permits.example.gov/BP-2026-0042",
};

/** Import Permits from CSV: a dry run (preview and what would happen), the import, and the template. */
export async function importsRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { db } = app.ctx;

  r.get(
    "/api/imports/permits/template.csv",
    {
      schema: { tags: ["imports"], summary: "The CSV template with the import's columns and an example row" },
    },
    async (request, reply) => {
      authorize(canImportPermits(actorOf(request)));
      const csv = `${CSV_TEMPLATE_COLUMNS.join(",")}\r\n${CSV_TEMPLATE_COLUMNS.map((c) => TEMPLATE_EXAMPLE[c]).join(",")}\r\n`;
      return reply
        .type("text/csv; charset=utf-8")
        .header("content-disposition", 'attachment; filename="permit-import-template.csv"')
        .send(csv);
    },
  );

  r.post(
    "/api/imports/permits",
    {
      schema: {
        tags: ["imports"],
        summary:
          "Import permits from a CSV file (multipart: company_id, then file, and optionally `conditions`, a CSV of conditions); dry_run=true changes nothing",
        querystring: ImportQuerySchema,
        consumes: ["multipart/form-data"],
        response: { 200: ImportResultSchema, ...errors },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      authorize(canImportPermits(actor));
      if (!request.isMultipart()) throw validation({ file: "Choose a CSV file to import." });

      let requestedCompany: string | null = null;
      let file: { name: string; bytes: Uint8Array } | null = null;
      let conditionsFile: { name: string; bytes: Uint8Array } | null = null;
      try {
        for await (const part of request.parts({
          limits: { fileSize: DEFAULT_CSV_LIMITS.maxBytes, files: 2 },
        })) {
          if (part.type === "file") {
            if (part.filename && hasUnstorableText(part.filename)) {
              part.file.resume();
              const message = `The file name is not valid. ${UNSTORABLE_TEXT_MESSAGE}`;
              throw validation({ file: message }, message);
            }
            // Issue 29: the field `conditions` is the conditions file; any other, the permits.
            if (part.fieldname === "conditions")
              conditionsFile = { name: part.filename || "conditions.csv", bytes: await part.toBuffer() };
            else file = { name: part.filename || "import.csv", bytes: await part.toBuffer() };
          } else if (part.fieldname === "company_id" && typeof part.value === "string" && part.value) {
            requestedCompany = part.value;
          }
        }
      } catch (err) {
        if ((err as { code?: string }).code === "FST_REQ_FILE_TOO_LARGE") {
          throw new AppError(
            413,
            "PAYLOAD_TOO_LARGE",
            `The file is larger than ${DEFAULT_CSV_LIMITS.maxBytes / 1024 / 1024} MB.`,
          );
        }
        throw err;
      }
      if (!file) throw validation({ file: "Choose a CSV file to import." });
      if (choosesCompany(actor) && !requestedCompany)
        throw validation({ company_id: COMPANY_MISSING }, COMPANY_MISSING);
      if (requestedCompany && !UUID.safeParse(requestedCompany).success)
        throw validation({ company_id: "Must be a valid id" });
      const companyId = targetCompanyId(actor, requestedCompany);
      const [company] = await db
        .select({ id: companies.id, name: companies.name })
        .from(companies)
        .where(eq(companies.id, companyId));
      if (!company) throw notFound("Company");

      try {
        return await importPermits(db, actor, company, file, {
          dryRun: request.query.dry_run,
          conditionsFile,
        });
      } catch (err) {
        if (err instanceof CsvError) throw validation({ file: err.message }, err.message);
        throw err;
      }
    },
  );
}
