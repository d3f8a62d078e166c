import { z } from "zod";
import { IdSchema } from "./common.ts";
import { requiredText } from "./fields.ts";

export const CLIENT_NAME_MAX = 200;

/** Spec section 5: "Client Name non-empty after trimming". */
export const ClientNameSchema = requiredText("Client Name", CLIENT_NAME_MAX, { typeMessage: false });

/** POST /api/clients. `company_id` is read for a super-admin only; everyone else writes to their own company. */
export const ClientCreateSchema = z.object({
  company_id: IdSchema.nullish(),
  name: ClientNameSchema,
});
export type ClientCreate = z.infer<typeof ClientCreateSchema>;

/** PUT /api/clients/:id: a client stays in its company; only the name changes. */
export const ClientUpdateSchema = z.object({ name: ClientNameSchema });
export type ClientUpdate = z.infer<typeof ClientUpdateSchema>;

/** The client form (the drawer): the company choice is required there (spec section 5). */
export const ClientFormSchema = z.object({
  company_id: z.string().min(1, { message: "Company is required" }),
  name: ClientNameSchema,
});
export type ClientForm = z.input<typeof ClientFormSchema>;

export const ClientListQuerySchema = z.object({ company_id: IdSchema.optional() });

export const ClientSchema = z.object({
  id: IdSchema,
  name: z.string(),
  companyId: IdSchema,
  /** Null when the company cannot be read; the table shows 'Unknown'. */
  companyName: z.string().nullable(),
  createdAt: z.string(),
  /** Projects linked to the client: a client with projects cannot be deleted. */
  projectCount: z.number().int(),
  can: z.object({ edit: z.boolean(), delete: z.boolean() }),
});
export type Client = z.infer<typeof ClientSchema>;

export const ClientListSchema = z.object({ clients: z.array(ClientSchema) });
export type ClientList = z.infer<typeof ClientListSchema>;
export const ClientResponseSchema = z.object({ client: ClientSchema });
