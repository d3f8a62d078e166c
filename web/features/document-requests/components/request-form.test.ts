import { describe, expect, it } from "vitest";
import { CreateRequestInputSchema } from "../../../../shared/schemas/document-requests.ts";
import { emptyRequest, requestFormSchema, toRequestBody, type RequestFormValues } from "./request-form.ts";

const TODAY = "2026-11-27";
const contact = {
  id: "6f1c2a70-3b0a-4a43-9d0e-5a4f8f7c1b11",
  name: "Alex Rivera",
  email: "alex@county.example",
  organization: "Boulder County",
  kind: "agency" as const,
};
const messages = (values: RequestFormValues) => {
  const parsed = requestFormSchema(TODAY).safeParse(values);
  return parsed.success
    ? {}
    : Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0]), i.message]));
};

describe("the Request Document dialog's values", () => {
  it("offers a permit's renewal fields, or a bond's rider fields, all ticked", () => {
    expect(emptyRequest(false)).toMatchObject({
      documentKind: "renewed_permit",
      fields: ["new_expiration_date", "new_permit_number"],
    });
    expect(emptyRequest(true)).toMatchObject({
      documentKind: "bond_rider",
      fields: ["amount", "effective_date"],
    });
  });

  it("says what is missing in words a person acts on", () => {
    expect(messages(emptyRequest(false))).toEqual({
      name: "Choose a contact or type the name of a new one",
      email: "Enter the new contact's e-mail",
    });
    const other = {
      ...emptyRequest(false),
      name: "Pat",
      email: "pat@",
      documentKind: "other" as const,
      dueDate: "2026-11-26",
    };
    expect(messages(other)).toEqual({
      email: "Enter a valid e-mail address, like clerk@agency.gov",
      title: "Say which document you need",
      dueDate: "Due Date cannot be in the past",
    });
  });

  it("sends a picked contact by id, a new one by name, e-mail and organization, as the contract takes them", () => {
    const picked = {
      ...emptyRequest(false),
      contactId: contact.id,
      name: contact.name,
      email: contact.email,
    };
    const body = toRequestBody({ ...picked, message: "  Please  ", dueDate: "2026-12-04" }, contact);
    expect(body).toEqual({
      contactId: contact.id,
      documentKind: "renewed_permit",
      message: "Please",
      dueDate: "2026-12-04",
      fields: ["new_expiration_date", "new_permit_number"],
    });
    expect(CreateRequestInputSchema.safeParse(body).success).toBe(true);

    const typed = {
      ...emptyRequest(true),
      name: " Pat Morgan ",
      email: "pat@surety.example",
      organization: "",
    };
    const fresh = toRequestBody(typed, undefined);
    expect(fresh).toEqual({
      name: "Pat Morgan",
      email: "pat@surety.example",
      documentKind: "bond_rider",
      fields: ["amount", "effective_date"],
    });
    expect(CreateRequestInputSchema.safeParse(fresh).success).toBe(true);
  });

  it("keeps only the fields the chosen document offers, and an Other's title", () => {
    const other = {
      ...emptyRequest(false),
      name: "Pat",
      email: "p@x.example",
      documentKind: "other" as const,
      title: " Plan ",
    };
    const body = toRequestBody(other, undefined);
    expect(body.fields).toEqual([]);
    expect(body.title).toBe("Plan");
    expect(CreateRequestInputSchema.safeParse(body).success).toBe(true);
  });
});
