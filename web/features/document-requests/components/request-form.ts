import { z } from "zod";
import {
  DOCUMENT_KINDS,
  KIND_FIELDS,
  REQUEST_FIELDS,
  REQUEST_MESSAGE_MAX,
  REQUEST_TITLE_MAX,
  type DocumentKind,
  type RequestField,
} from "../../../../shared/domain/document-requests.ts";
import type { NewRequestBody, RequestContact } from "../api/types.ts";

/** What the 'Request Document' dialog holds: a contact picked (its id) or typed (name, e-mail, organization). */
export interface RequestFormValues {
  contactId: string;
  name: string;
  email: string;
  organization: string;
  documentKind: DocumentKind;
  title: string;
  message: string;
  dueDate: string;
  fields: RequestField[];
}

export const emptyRequest = (isBond: boolean): RequestFormValues => {
  const documentKind: DocumentKind = isBond ? "bond_rider" : "renewed_permit";
  return {
    contactId: "",
    name: "",
    email: "",
    organization: "",
    documentKind,
    title: "",
    message: "",
    dueDate: "",
    fields: [...KIND_FIELDS[documentKind]],
  };
};

const isEmail = (value: string) => z.email().safeParse(value).success;

/**
 * The dialog's checks, in words a person acts on (the server checks the body again): a contact, its
 * e-mail when it has none yet, the title of an 'Other', a due date from today on.
 */
export const requestFormSchema = (today: string) =>
  z
    .object({
      contactId: z.string(),
      name: z.string().trim().max(200, { message: "Contact must be at most 200 characters" }),
      email: z.string().trim().max(254, { message: "E-mail must be at most 254 characters" }),
      organization: z.string().trim().max(200, { message: "Organization must be at most 200 characters" }),
      documentKind: z.enum(DOCUMENT_KINDS, { message: "Choose the document" }),
      title: z
        .string()
        .trim()
        .max(REQUEST_TITLE_MAX, { message: `Title must be at most ${REQUEST_TITLE_MAX} characters` }),
      message: z
        .string()
        .trim()
        .max(REQUEST_MESSAGE_MAX, { message: `Message must be at most ${REQUEST_MESSAGE_MAX} characters` }),
      dueDate: z.string(),
      fields: z.array(z.enum(REQUEST_FIELDS)),
    })
    .superRefine((v, ctx) => {
      const issue = (path: keyof RequestFormValues, message: string) =>
        ctx.addIssue({ code: "custom", path: [path], message });
      if (!v.contactId && !v.name) issue("name", "Choose a contact or type the name of a new one");
      if (!v.email)
        issue(
          "email",
          v.contactId ? "This contact has no e-mail: enter one" : "Enter the new contact's e-mail",
        );
      else if (!isEmail(v.email)) issue("email", "Enter a valid e-mail address, like clerk@agency.gov");
      if (v.documentKind === "other" && !v.title) issue("title", "Say which document you need");
      if (v.dueDate && v.dueDate < today) issue("dueDate", "Due Date cannot be in the past");
    });

/** The contract's body: the picked contact's id (with an e-mail it lacked), or the new contact. */
export function toRequestBody(v: RequestFormValues, contact: RequestContact | undefined): NewRequestBody {
  const party = contact
    ? { contactId: contact.id, ...(contact.email ? {} : { email: v.email.trim() }) }
    : {
        name: v.name.trim(),
        email: v.email.trim(),
        ...(v.organization.trim() ? { organization: v.organization.trim() } : {}),
      };
  const offered = KIND_FIELDS[v.documentKind];
  return {
    ...party,
    documentKind: v.documentKind,
    ...(v.documentKind === "other" ? { title: v.title.trim() } : {}),
    ...(v.message.trim() ? { message: v.message.trim() } : {}),
    ...(v.dueDate ? { dueDate: v.dueDate } : {}),
    fields: v.fields.filter((field) => offered.includes(field)),
  };
}
