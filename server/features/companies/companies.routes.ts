import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  canCreateCompany,
  canDeleteCompany,
  canEditCompany,
  canListCompanies,
  canViewCompany,
  canViewCompanyLogo,
  companyListCan,
} from "../../access/policies/company.ts";
import { actorOf } from "../../auth/plugin.ts";
import { AppError, authorize, notFound, validation } from "../../errors.ts";
import { openCheckedDownload } from "../../storage/checked-download.ts";
import { ErrorResponseSchema, IdParamsSchema, errorResponses } from "../../../shared/schemas/common.ts";
import { CompanyInputSchema, CompanyListSchema, CompanySchema } from "../../../shared/schemas/companies.ts";
import {
  createCompany,
  deleteCompany,
  findVisibleCompany,
  listCompanies,
  presentCompany,
  recordLogoDigest,
  removeLogo,
  replaceLogo,
  updateCompany,
} from "./companies.service.ts";

const errors = errorResponses(400, 401, 403, 404, 409);
const FILE_REQUIRED = "Choose a logo file.";

/**
 * Companies (spec sections 2 and 6): the super-admin lists, creates, edits and deletes all of them;
 * a company-admin sees its own, read-only; other roles have no access. The logo is readable by every
 * signed-in user of the company (the header shows it).
 */
export async function companiesRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { db, storage, config } = app.ctx;

  r.get(
    "/api/companies",
    {
      schema: {
        tags: ["companies"],
        summary: "Companies the caller may see (super-admin: all; company-admin: its own)",
        response: { 200: CompanyListSchema, ...errors },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      authorize(canListCompanies(actor));
      const rows = await listCompanies(db, actor);
      return {
        companies: rows.map((c) => presentCompany(actor, c)),
        defaultTimeZone: config.DEFAULT_TIME_ZONE,
        can: companyListCan(actor),
      };
    },
  );

  r.post(
    "/api/companies",
    {
      schema: {
        tags: ["companies"],
        summary: "Create a company (super-admin)",
        body: CompanyInputSchema,
        response: { 201: CompanySchema, ...errors },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      authorize(canCreateCompany(actor));
      const id = await createCompany(db, actor, request.body, config.DEFAULT_TIME_ZONE);
      return reply.status(201).send(presentCompany(actor, await findVisibleCompany(db, actor, id)));
    },
  );

  r.get(
    "/api/companies/:id",
    {
      schema: {
        tags: ["companies"],
        summary: "One company, with the counts of what a delete would remove",
        params: IdParamsSchema,
        response: { 200: CompanySchema, ...errors },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      const company = await findVisibleCompany(db, actor, request.params.id);
      authorize(canViewCompany(actor, company));
      return presentCompany(actor, company);
    },
  );

  r.put(
    "/api/companies/:id",
    {
      schema: {
        tags: ["companies"],
        summary: "Update a company (super-admin)",
        params: IdParamsSchema,
        body: CompanyInputSchema,
        response: { 200: CompanySchema, ...errors },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      const company = await findVisibleCompany(db, actor, request.params.id);
      authorize(canEditCompany(actor, company));
      await updateCompany(db, actor, company, request.body);
      return presentCompany(actor, await findVisibleCompany(db, actor, company.id));
    },
  );

  r.delete(
    "/api/companies/:id",
    {
      schema: {
        tags: ["companies"],
        summary:
          "Delete a company and everything it owns (users, clients, projects, permits) in one transaction",
        params: IdParamsSchema,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      const company = await findVisibleCompany(db, actor, request.params.id);
      authorize(canDeleteCompany(actor, company));
      await deleteCompany(db, storage, actor, company);
      return reply.status(204).send(null);
    },
  );

  r.post(
    "/api/companies/:id/logo",
    {
      schema: {
        tags: ["companies"],
        summary: 'Upload the logo (multipart, one field named "file"; PNG, JPEG or WebP, checked by content)',
        description: `The size limit is LOGO_MAX_BYTES (${config.LOGO_MAX_BYTES} bytes here); larger files answer 413.`,
        consumes: ["multipart/form-data"],
        params: IdParamsSchema,
        response: { 200: CompanySchema, ...errors, 413: ErrorResponseSchema, 415: ErrorResponseSchema },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      const company = await findVisibleCompany(db, actor, request.params.id);
      authorize(canEditCompany(actor, company));
      if (!request.isMultipart()) throw validation({ file: FILE_REQUIRED });
      const part = await request.file({ limits: { fileSize: config.LOGO_MAX_BYTES } });
      if (!part) throw validation({ file: FILE_REQUIRED });
      if (part.fieldname !== "file") {
        part.file.resume();
        throw validation({ file: 'Send the logo in a field named "file".' });
      }
      const bytes = await part.toBuffer().catch((err: { code?: string }) => {
        if (err.code !== "FST_REQ_FILE_TOO_LARGE") throw err;
        const limit = `${Math.round((config.LOGO_MAX_BYTES / 1024 / 1024) * 10) / 10} MB`;
        throw new AppError(413, "PAYLOAD_TOO_LARGE", `The logo must be at most ${limit}.`, {
          file: `The logo must be at most ${limit}.`,
        });
      });
      await replaceLogo(db, storage, actor, company, bytes);
      return presentCompany(actor, await findVisibleCompany(db, actor, company.id));
    },
  );

  r.delete(
    "/api/companies/:id/logo",
    {
      schema: {
        tags: ["companies"],
        summary: "Remove the logo (super-admin); the header shows the product logo again",
        params: IdParamsSchema,
        response: { 200: CompanySchema, ...errors },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      const company = await findVisibleCompany(db, actor, request.params.id);
      authorize(canEditCompany(actor, company));
      await removeLogo(db, storage, actor, company);
      return presentCompany(actor, await findVisibleCompany(db, actor, company.id));
    },
  );

  r.get(
    "/api/companies/:id/logo",
    {
      schema: {
        tags: ["companies"],
        summary: "The logo image, for signed-in users of the company and the super-admin",
        params: IdParamsSchema,
        produces: ["image/png", "image/jpeg", "image/webp"],
        response: { 200: z.any().describe("The image bytes"), ...errors },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      const company = await findVisibleCompany(db, actor, request.params.id);
      authorize(canViewCompanyLogo(actor, company));
      const { logoKey, logoContentType } = company;
      if (!logoKey || !logoContentType) throw notFound("Logo");
      const logo = await openCheckedDownload(
        storage,
        request.log,
        { key: logoKey, size: company.logoSize, sha256: company.logoSha256 },
        { name: "Logo", ids: { companyId: company.id } },
        (digest) => recordLogoDigest(db, { id: company.id, logoKey }, digest),
      );
      // The URL carries a version of the key (logo-url.ts), so a new logo is a new URL.
      return reply
        .header("content-type", logoContentType)
        .header("content-length", logo.size)
        .header("x-content-type-options", "nosniff")
        .header("content-security-policy", "default-src 'none'; sandbox")
        .header("cache-control", "private, max-age=31536000, immutable")
        .send(logo.stream);
    },
  );
}
