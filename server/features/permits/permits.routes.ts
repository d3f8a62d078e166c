import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { choosesCompany, targetCompanyId, type Actor } from "../../access/actor.ts";
import {
  canCreatePermit,
  canDeletePermit,
  canEditPermit,
  canListPermits,
  canUsePermitForm,
  canViewPermit,
} from "../../access/policies/permit.ts";
import { actorOf } from "../../auth/plugin.ts";
import { authorize } from "../../errors.ts";
import { IdParamsSchema, errorResponses } from "../../../shared/schemas/common.ts";
import { PermitDetailSchema } from "../../../shared/schemas/permit-detail.ts";
import { PermitInputSchema } from "../../../shared/schemas/permit-input.ts";
import { PermitListSchema } from "../../../shared/schemas/permit-list.ts";
import { PermitFilterSchema, PermitListQuerySchema } from "../../../shared/schemas/permit-list-query.ts";
import {
  CompanyQuerySchema,
  PermitAgenciesSchema,
  PermitFilterOptionsSchema,
  PermitFormOptionsQuerySchema,
  PermitFormOptionsSchema,
} from "../../../shared/schemas/permit-options.ts";
import { PermitSummarySchema } from "../../../shared/schemas/permit-summary.ts";
import { findVisiblePermit } from "./permit-access.ts";
import {
  findVisiblePermitDetail,
  permitDetail,
  presentPermit,
  presentPermitList,
} from "./permits.presenter.ts";
import { filterOptions } from "./permit-filter-options.query.ts";
import { companyAgencies, formOptions, projectCompanyId } from "./permit-form-options.query.ts";
import { listPermitRows } from "./permit-list-page.query.ts";
import { summarizePermits } from "./permit-summary.query.ts";
import { createPermit, deletePermit, updatePermit } from "./permits.service.ts";

const errors = errorResponses(400, 401, 403, 404);
const tags = ["permits"];

/** The company whose form data is asked for: a super-admin names it, everyone else has their own. */
const formCompanyId = (actor: Actor, requested: string | null) =>
  choosesCompany(actor) ? requested : actor.companyId;

/** The All Permits list, its dashboard, and create/read/update/delete of one permit. */
export async function permitsRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { db } = app.ctx;

  r.get(
    "/api/permits",
    {
      schema: {
        tags,
        summary:
          "One page of the All Permits list: filtered (tiles, search, status, project, client, agency, expiry range), sorted, grouped by client and project or not at all",
        querystring: PermitListQuerySchema,
        response: { 200: PermitListSchema, ...errors },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      authorize(canListPermits(actor));
      return presentPermitList(actor, request.query, await listPermitRows(db, actor, request.query));
    },
  );

  r.get(
    "/api/permits/summary",
    {
      schema: {
        tags,
        summary:
          "Tiles and chart data of the All Permits dashboard, over the list's filters (every tile counted)",
        querystring: PermitFilterSchema,
        response: { 200: PermitSummarySchema, ...errors },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      authorize(canListPermits(actor));
      return summarizePermits(db, actor, request.query);
    },
  );

  r.get(
    "/api/permits/filter-options",
    {
      schema: {
        tags,
        summary: "Choices of the list's Project, Client and Agency filters, within what the actor can see",
        response: { 200: PermitFilterOptionsSchema, ...errors },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      authorize(canListPermits(actor));
      return filterOptions(db, actor);
    },
  );

  r.get(
    "/api/permits/agencies",
    {
      schema: {
        tags,
        summary: "Distinct agencies of a company's permits, for the form's suggestions",
        querystring: CompanyQuerySchema,
        response: { 200: PermitAgenciesSchema, ...errors },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      authorize(canUsePermitForm(actor));
      const companyId = formCompanyId(actor, request.query.company_id);
      return { agencies: companyId ? await companyAgencies(db, companyId) : [] };
    },
  );

  r.get(
    "/api/permits/form-options",
    {
      schema: {
        tags,
        summary: "The permit form's projects (and companies, for a super-admin)",
        querystring: PermitFormOptionsQuerySchema,
        response: { 200: PermitFormOptionsSchema, ...errors },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      authorize(canUsePermitForm(actor));
      const { company_id, project_id } = request.query;
      let companyId = formCompanyId(actor, company_id);
      if (!companyId && project_id) companyId = await projectCompanyId(db, actor, project_id);
      return formOptions(db, actor, companyId);
    },
  );

  r.get(
    "/api/permits/:id",
    {
      schema: {
        tags,
        summary: "One permit with its project, client, company and what the actor may do",
        params: IdParamsSchema,
        response: { 200: PermitDetailSchema, ...errors },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      const found = await findVisiblePermitDetail(db, actor, request.params.id);
      authorize(canViewPermit(actor, found.permit));
      return permitDetail(actor, found);
    },
  );

  r.post(
    "/api/permits",
    {
      schema: {
        tags,
        summary: "Create a permit or bond",
        body: PermitInputSchema,
        response: { 201: PermitDetailSchema, ...errors },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      authorize(canCreatePermit(actor));
      const row = await createPermit(
        db,
        actor,
        targetCompanyId(actor, request.body.company_id),
        request.body,
      );
      return reply.status(201).send(await presentPermit(db, actor, row));
    },
  );

  r.put(
    "/api/permits/:id",
    {
      schema: {
        tags,
        summary: "Update a permit from the form (every change is audited)",
        params: IdParamsSchema,
        body: PermitInputSchema,
        response: { 200: PermitDetailSchema, ...errors },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      const permit = await findVisiblePermit(db, actor, request.params.id);
      authorize(canEditPermit(actor, permit));
      return presentPermit(db, actor, await updatePermit(db, actor, permit.id, request.body));
    },
  );

  r.delete(
    "/api/permits/:id",
    {
      schema: {
        tags,
        summary: "Delete a permit (company-admin and super-admin)",
        params: IdParamsSchema,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      const permit = await findVisiblePermit(db, actor, request.params.id);
      authorize(canDeletePermit(actor, permit));
      const keys = await deletePermit(db, actor, permit.id);
      // After the commit: a failed file removal leaves an orphan file, never a dangling row.
      for (const key of keys) {
        await app.ctx.storage
          .remove(key)
          .catch((err: unknown) => request.log.warn({ err, key }, "attachment file not removed"));
      }
      return reply.status(204).send(null);
    },
  );
}
