import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { targetCompanyId } from "../../access/actor.ts";
import {
  canCreateProject,
  canDeleteProject,
  canEditProject,
  canListProjects,
  canViewProject,
} from "../../access/policies/project.ts";
import { actorOf } from "../../auth/plugin.ts";
import { authorize } from "../../errors.ts";
import { IdParamsSchema, errorResponses } from "../../../shared/schemas/common.ts";
import {
  ProjectCreateSchema,
  ProjectDashboardSchema,
  ProjectListQuerySchema,
  ProjectListSchema,
  ProjectResponseSchema,
  ProjectStatusUpdateSchema,
  ProjectUpdateSchema,
} from "../../../shared/schemas/projects.ts";
import { createProject } from "./project-create.service.ts";
import { findProjectDashboard, projectDashboard } from "./project-dashboard.ts";
import { deleteProject } from "./project-delete.service.ts";
import { setProjectStatus, updateProject } from "./project-update.service.ts";
import { getProject, listProjects } from "./projects.repository.ts";

const errors = errorResponses(400, 401, 403, 404, 409);

/**
 * Projects (spec sections 2-5). Every role reads the projects it can see (a client-user only its
 * clients'); creating, editing, changing status and deleting need projects.manage.
 */
export async function projectsRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { db, storage } = app.ctx;

  r.get(
    "/api/projects",
    {
      schema: {
        tags: ["projects"],
        summary:
          "List the projects the user can see, with permit counts, sorted by name, project_number or status",
        querystring: ProjectListQuerySchema,
        response: { 200: ProjectListSchema, ...errors },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      authorize(canListProjects(actor));
      const { company_id, sort, dir } = request.query;
      return { projects: await listProjects(db, actor, { companyId: company_id, sort, dir }) };
    },
  );

  r.get(
    "/api/projects/:id",
    {
      schema: {
        tags: ["projects"],
        summary: "One project",
        params: IdParamsSchema,
        response: { 200: ProjectResponseSchema, ...errors },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      const project = await getProject(db, actor, request.params.id);
      authorize(canViewProject(actor, project));
      return { project };
    },
  );

  r.get(
    "/api/projects/:id/dashboard",
    {
      schema: {
        tags: ["projects"],
        summary: "The project dashboard: the project, its permits (N/A last), categories and summary",
        params: IdParamsSchema,
        response: { 200: ProjectDashboardSchema, ...errors },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      const found = await findProjectDashboard(db, actor, request.params.id);
      authorize(canViewProject(actor, found.project));
      return projectDashboard(found);
    },
  );

  r.post(
    "/api/projects",
    {
      schema: {
        tags: ["projects"],
        summary:
          "Create a project, its client if new, and one permit per active template, in one transaction",
        body: ProjectCreateSchema,
        response: { 201: ProjectResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      authorize(canCreateProject(actor));
      const companyId = targetCompanyId(actor, request.body.company_id);
      const project = await createProject(db, actor, companyId, request.body);
      return reply.status(201).send({ project });
    },
  );

  r.put(
    "/api/projects/:id",
    {
      schema: {
        tags: ["projects"],
        summary: "Update a project; a new client is copied onto its permits",
        params: IdParamsSchema,
        body: ProjectUpdateSchema,
        response: { 200: ProjectResponseSchema, ...errors },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      const project = await getProject(db, actor, request.params.id);
      authorize(canEditProject(actor, project));
      return { project: await updateProject(db, actor, project, request.body) };
    },
  );

  r.patch(
    "/api/projects/:id/status",
    {
      schema: {
        tags: ["projects"],
        summary: "Change a project's status",
        params: IdParamsSchema,
        body: ProjectStatusUpdateSchema,
        response: { 200: ProjectResponseSchema, ...errors },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      const project = await getProject(db, actor, request.params.id);
      authorize(canEditProject(actor, project));
      return { project: await setProjectStatus(db, actor, project, request.body.status) };
    },
  );

  r.delete(
    "/api/projects/:id",
    {
      schema: {
        tags: ["projects"],
        summary: "Delete a project and, by cascade, its permits",
        params: IdParamsSchema,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      const project = await getProject(db, actor, request.params.id);
      authorize(canDeleteProject(actor, project));
      const files = await deleteProject(db, actor, project);
      // The rows are gone for good; a file that fails to go is only wasted space, so log and move on.
      for (const key of files) {
        await storage
          .remove(key)
          .catch((err: unknown) => request.log.warn({ err, key }, "attachment file not removed"));
      }
      return reply.status(204).send(null);
    },
  );
}
