import { z } from "zod";
import { ROLES } from "../domain/roles.ts";
import { PasswordSchema } from "./auth.ts";
import { blankableText, nonBlankText, optionalId, uuid } from "./fields.ts";

const EmailSchema = nonBlankText(254, "Email").refine((v) => z.email().safeParse(v).success, {
  message: "Enter a valid email address",
});

/** "" and null both mean "no company" (the form's empty select sends ""). */
const CompanyIdSchema = optionalId("Company is required");

const userFields = {
  firstName: nonBlankText(100, "First Name"),
  lastName: nonBlankText(100, "Last Name"),
  companyId: CompanyIdSchema,
  phone: blankableText(50),
  title: blankableText(100),
  role: z.enum(ROLES, { message: "Choose a role" }),
};

// Every role but super-admin belongs to a company (spec section 5: Company required).
const needsCompany = (v: { role: string; companyId: string | null }) =>
  v.role === "super-admin" || !!v.companyId;
const companyRequired = { message: "Company is required", path: ["companyId"] };

/** The user form on create, and the body of POST /api/users. */
export const CreateUserSchema = z
  .object({
    email: EmailSchema,
    ...userFields,
    password: PasswordSchema,
    mustResetPassword: z.boolean().optional().default(true),
  })
  .refine(needsCompany, companyRequired);
export type CreateUserInput = z.input<typeof CreateUserSchema>;
export type CreateUser = z.output<typeof CreateUserSchema>;

/**
 * The user form on edit, and the body of PUT /api/users/:id. The e-mail is not editable; an
 * empty password keeps the current one.
 */
export const UpdateUserSchema = z
  .object({
    ...userFields,
    password: z
      .union([z.literal(""), PasswordSchema])
      .optional()
      .transform((v) => v || null),
    mustResetPassword: z.boolean().optional(),
  })
  .refine(needsCompany, companyRequired);
export type UpdateUserInput = z.input<typeof UpdateUserSchema>;
export type UpdateUser = z.output<typeof UpdateUserSchema>;

/** PUT /api/users/:id/clients: the clients (of the user's own company) a client-user may see. */
export const UserClientsSchema = z.object({
  clientIds: z.array(uuid()).max(1000),
});
export type UserClients = z.infer<typeof UserClientsSchema>;

export const UserSchema = z.object({
  id: z.uuid(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  phone: z.string().nullable(),
  title: z.string().nullable(),
  role: z.enum(ROLES),
  companyId: z.uuid().nullable(),
  companyName: z.string().nullable(),
  disabled: z.boolean(),
  mustResetPassword: z.boolean(),
  /** Signs in with an authenticator app (two-factor sign-in). */
  twoFactorEnabled: z.boolean(),
  /** A client-user's visible clients; empty for other roles. */
  clients: z.array(z.object({ id: z.uuid(), name: z.string() })),
  createdAt: z.string(),
  can: z.object({
    edit: z.boolean(),
    delete: z.boolean(),
    disable: z.boolean(),
    enable: z.boolean(),
    editClients: z.boolean(),
    resetTwoFactor: z.boolean(),
  }),
});
export type User = z.infer<typeof UserSchema>;

export const UserListQuerySchema = z.object({
  /** Super-admin only: one company's users ("none" for users without a company). */
  companyId: z.union([z.uuid(), z.literal("none")]).optional(),
});

export const UserListSchema = z.object({
  users: z.array(UserSchema),
  can: z.object({ create: z.boolean() }),
});
export type UserList = z.infer<typeof UserListSchema>;
