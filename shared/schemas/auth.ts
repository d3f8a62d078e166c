import { z } from "zod";
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "../domain/constants.ts";
import { CAPABILITIES, type Capability } from "../domain/permissions.ts";
import { ROLES } from "../domain/roles.ts";

export const SignInSchema = z.object({
  email: z.email({ message: "Enter a valid email address" }).max(254),
  password: z.string().min(1, { message: "Password is required" }).max(PASSWORD_MAX_LENGTH),
});
export type SignIn = z.infer<typeof SignInSchema>;

export const PasswordSchema = z
  .string()
  .min(PASSWORD_MIN_LENGTH, { message: `Password must be at least ${PASSWORD_MIN_LENGTH} characters long.` })
  .max(PASSWORD_MAX_LENGTH, { message: `Password must be at most ${PASSWORD_MAX_LENGTH} characters long.` });

export const ResetPasswordSchema = z
  .object({ newPassword: PasswordSchema, confirmPassword: z.string() })
  .refine((v) => v.newPassword === v.confirmPassword, {
    message: "Passwords do not match.",
    path: ["confirmPassword"],
  });
export type ResetPassword = z.infer<typeof ResetPasswordSchema>;

export const CompanySummarySchema = z.object({
  id: z.uuid(),
  name: z.string(),
  address: z.string().nullable(),
  phone: z.string().nullable(),
  website: z.string().nullable(),
  logoUrl: z.string().nullable(),
  timeZone: z.string(),
});
export type CompanySummary = z.infer<typeof CompanySummarySchema>;

export const MeSchema = z.object({
  id: z.uuid(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  role: z.enum(ROLES),
  companyId: z.uuid().nullable(),
  company: CompanySummarySchema.nullable(),
  mustResetPassword: z.boolean(),
  capabilities: z.array(z.enum(CAPABILITIES)),
  /** Set while a super-admin is viewing the app as this user ("mimic"). */
  impersonator: z.object({ id: z.uuid(), name: z.string(), email: z.string() }).nullable(),
});
export type Me = z.infer<typeof MeSchema> & { capabilities: Capability[] };
