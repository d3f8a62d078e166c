import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { targetCompanyId } from "../../access/actor.ts";
import {
  canCreateTemplate,
  canDeleteTemplate,
  canEditTemplate,
  canListTemplates,
} from "../../access/policies/template.ts";
import { actorOf } from "../../auth/plugin.ts";
import { authorize } from "../../errors.ts";
import { IdParamsSchema, errorResponses } from "../../../shared/schemas/common.ts";
import {
  TemplateCreateSchema,
  TemplateListQuerySchema,
  TemplateListSchema,
  TemplatePatchSchema,
  TemplateResponseSchema,
  TemplateUpdateSchema,
} from "../../../shared/schemas/templates.ts";
import {
  createTemplate,
  deleteTemplate,
  getTemplate,
  listTemplates,
  updateTemplate,
} from "./templates.service.ts";

const errors = errorResponses(400, 401, 403, 404, 409);

/**
 * Permit templates (spec section 2): a company's list of permits that every new project gets.
 * Super-admins for any company (naming it), company-admins for their own; nobody else.
 */
export async function templatesRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { db } = app.ctx;

  r.get(
    "/api/templates",
    {
      schema: {
        tags: ["templates"],
        summary: "A company's permit templates by name (a super-admin names the company)",
        querystring: TemplateListQuerySchema,
        response: { 200: TemplateListSchema, ...errors },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      authorize(canListTemplates(actor));
      const companyId = targetCompanyId(actor, request.query.company_id);
      return { templates: await listTemplates(db, actor, companyId) };
    },
  );

  r.post(
    "/api/templates",
    {
      schema: {
        tags: ["templates"],
        summary: "Add a template (names are unique within a company)",
        body: TemplateCreateSchema,
        response: { 201: TemplateResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      authorize(canCreateTemplate(actor));
      const { company_id, ...input } = request.body;
      const template = await createTemplate(db, actor, targetCompanyId(actor, company_id), input);
      return reply.status(201).send({ template });
    },
  );

  r.put(
    "/api/templates/:id",
    {
      schema: {
        tags: ["templates"],
        summary: "Rename a template and change its agency",
        params: IdParamsSchema,
        body: TemplateUpdateSchema,
        response: { 200: TemplateResponseSchema, ...errors },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      const template = await getTemplate(db, actor, request.params.id);
      authorize(canEditTemplate(actor, template));
      return { template: await updateTemplate(db, actor, template, request.body) };
    },
  );

  r.patch(
    "/api/templates/:id",
    {
      schema: {
        tags: ["templates"],
        summary: "Switch a template's status (Required or N/A) or whether it is active",
        params: IdParamsSchema,
        body: TemplatePatchSchema,
        response: { 200: TemplateResponseSchema, ...errors },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      const template = await getTemplate(db, actor, request.params.id);
      authorize(canEditTemplate(actor, template));
      return { template: await updateTemplate(db, actor, template, request.body) };
    },
  );

  r.delete(
    "/api/templates/:id",
    {
      schema: {
        tags: ["templates"],
        summary: "Delete a template (permits made from it stay)",
        params: IdParamsSchema,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      const template = await getTemplate(db, actor, request.params.id);
      authorize(canDeleteTemplate(actor, template));
      await deleteTemplate(db, actor, template);
      return reply.status(204).send(null);
    },
  );
}
