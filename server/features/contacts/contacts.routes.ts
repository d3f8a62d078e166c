import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { targetCompanyId } from "../../access/actor.ts";
import {
  canCreateContact,
  canDeleteContact,
  canEditContact,
  canListContacts,
  contactListCan,
} from "../../access/policies/contact.ts";
import { actorOf } from "../../auth/plugin.ts";
import { authorize } from "../../errors.ts";
import {
  ContactInputSchema,
  ContactListQuerySchema,
  ContactListSchema,
  ContactPickerQuerySchema,
  ContactPickerSchema,
  ContactResponseSchema,
} from "../../../shared/schemas/contacts.ts";
import { IdParamsSchema, errorResponses } from "../../../shared/schemas/common.ts";
import { assertCompanyExists } from "../clients/index.ts";
import {
  findVisibleContact,
  listContacts,
  listContactsForPicker,
  presentOneContact,
} from "./contacts.repository.ts";
import { createContact, deleteContact, updateContact } from "./contacts.service.ts";

const errors = errorResponses(400, 401, 403, 404, 409);
const tags = ["contacts"];

/**
 * Contacts (issue 27): a company's outside people. Staff read them and may add one; admins edit
 * and delete (a super-admin in any company, naming it); client-users get nothing (403).
 */
export async function contactsRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { db } = app.ctx;

  r.get(
    "/api/contacts",
    {
      schema: {
        tags,
        summary:
          "One page of the company's contacts by name (a super-admin's: every company's, or the one named), searched (q) and filtered by kind",
        querystring: ContactListQuerySchema,
        response: { 200: ContactListSchema, ...errors },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      authorize(canListContacts(actor));
      const { page, page_size } = request.query;
      return {
        ...(await listContacts(db, actor, request.query)),
        page,
        page_size,
        can: contactListCan(actor),
      };
    },
  );

  r.get(
    "/api/contacts/picker",
    {
      schema: {
        tags,
        summary:
          "Every contact of one company by name, for the forms' pickers (a super-admin names the company)",
        querystring: ContactPickerQuerySchema,
        response: { 200: ContactPickerSchema, ...errors },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      authorize(canListContacts(actor));
      return { contacts: await listContactsForPicker(db, actor, request.query.company_id) };
    },
  );

  r.post(
    "/api/contacts",
    {
      schema: {
        tags,
        summary: "Add a contact (staff; a super-admin names the company); an e-mail is unique per company",
        body: ContactInputSchema,
        response: { 201: ContactResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      authorize(canCreateContact(actor));
      const companyId = targetCompanyId(actor, request.body.company_id);
      await assertCompanyExists(db, companyId);
      const row = await createContact(db, actor, companyId, request.body);
      return reply.status(201).send({ contact: await presentOneContact(db, actor, row.id) });
    },
  );

  r.put(
    "/api/contacts/:id",
    {
      schema: {
        tags,
        summary: "Edit a contact (admins); it stays in its company",
        params: IdParamsSchema,
        body: ContactInputSchema,
        response: { 200: ContactResponseSchema, ...errors },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      const contact = await findVisibleContact(db, actor, request.params.id);
      authorize(canEditContact(actor, contact));
      await updateContact(db, actor, contact, request.body);
      return { contact: await presentOneContact(db, actor, contact.id) };
    },
  );

  r.delete(
    "/api/contacts/:id",
    {
      schema: {
        tags,
        summary: "Delete a contact (admins); the permits that list it lose it",
        params: IdParamsSchema,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      const contact = await findVisibleContact(db, actor, request.params.id);
      authorize(canDeleteContact(actor, contact));
      await deleteContact(db, actor, contact);
      return reply.status(204).send(null);
    },
  );
}
