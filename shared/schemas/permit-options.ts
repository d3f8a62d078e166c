import { z } from "zod";
import { optionalId } from "./fields.ts";

// The choices the permit form and the list's filters offer.

export const CompanyQuerySchema = z.object({
  company_id: optionalId(),
});

export const PermitAgenciesSchema = z.object({ agencies: z.array(z.string()) });
export type PermitAgencies = z.infer<typeof PermitAgenciesSchema>;

/** A super-admin names the company, or a project of it (the form opened from a project). */
export const PermitFormOptionsQuerySchema = z.object({
  company_id: optionalId(),
  project_id: optionalId(),
});

/** GET /api/permits/form-options: the company's projects, and for a super-admin the companies. */
export const PermitFormOptionsSchema = z.object({
  /** The company the projects belong to; null when a super-admin has not chosen one yet. */
  company_id: z.uuid().nullable(),
  projects: z.array(
    z.object({
      id: z.uuid(),
      name: z.string(),
      project_number: z.string().nullable(),
      client_id: z.uuid().nullable(),
      client_name: z.string().nullable(),
    }),
  ),
  companies: z.array(z.object({ id: z.uuid(), name: z.string() })),
  /** The company's active staff, the choices of 'Responsible Person'. */
  staff: z.array(z.object({ id: z.uuid(), name: z.string() })),
});
export type PermitFormOptions = z.infer<typeof PermitFormOptionsSchema>;

/**
 * GET /api/permits/filter-options: the choices of the list's Project, Client and Agency filters,
 * within what the actor may see (a client-user: its clients' projects and permits only).
 */
export const PermitFilterOptionsSchema = z.object({
  projects: z.array(
    z.object({
      id: z.uuid(),
      name: z.string(),
      project_number: z.string().nullable(),
      client_id: z.uuid().nullable(),
      /** Named for a super-admin, whose choices span companies; null otherwise. */
      company_name: z.string().nullable(),
    }),
  ),
  clients: z.array(z.object({ id: z.uuid(), name: z.string(), company_name: z.string().nullable() })),
  agencies: z.array(z.string()),
  /** The Responsible filter: the people responsible for permits the actor can see. */
  responsible: z.array(z.object({ id: z.uuid(), name: z.string(), company_name: z.string().nullable() })),
  /** Whether the filter offers 'Me': the actor is staff who may be a permit's responsible person. */
  can_be_responsible: z.boolean(),
});
export type PermitFilterOptions = z.infer<typeof PermitFilterOptionsSchema>;
