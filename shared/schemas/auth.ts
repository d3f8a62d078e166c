import { z } from "zod";
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "../domain/constants.ts";
import { CAPABILITIES, type Capability } from "../domain/permissions.ts";
import { ROLES } from "../domain/roles.ts";
import { normalizeRecoveryCode, normalizeTotpCode, TOTP_DIGITS } from "../domain/two-factor.ts";

export const SignInSchema = z.object({
  email: z.email({ message: "Enter a valid email address" }).max(254),
  password: z.string().min(1, { message: "Password is required" }).max(PASSWORD_MAX_LENGTH),
});
export type SignIn = z.infer<typeof SignInSchema>;

/**
 * What a sign-in step answers. `codeRequired`: the password was right and an authentication code
 * comes next (the other two flags are then known only after the code). Otherwise the session is
 * set, and the flags say where the user goes first: the password reset, then two-factor set-up.
 */
export const SignInResultSchema = z.object({
  codeRequired: z.boolean(),
  mustResetPassword: z.boolean(),
  twoFactorSetupRequired: z.boolean(),
});
export type SignInResult = z.infer<typeof SignInResultSchema>;

const TOTP_MESSAGE = `Enter the ${TOTP_DIGITS}-digit code from your authenticator app.`;
const RECOVERY_MESSAGE = "Enter one of your recovery codes, like k7m2p-x9qrt.";
const isTotpCode = (code: string) => new RegExp(`^\\d{${TOTP_DIGITS}}$`).test(normalizeTotpCode(code));
const isRecoveryCode = (code: string) => /^[a-z0-9]{5}-[a-z0-9]{5}$/.test(normalizeRecoveryCode(code));

/** The code step of sign-in: a code from the authenticator app, or one of the recovery codes. */
export const VerifyCodeSchema = z
  .object({
    code: z.string().trim().min(1, { message: "Authentication Code is required" }).max(64),
    method: z.enum(["totp", "recovery"]).default("totp"),
  })
  .superRefine((v, ctx) => {
    if (v.method === "totp" ? !isTotpCode(v.code) : !isRecoveryCode(v.code)) {
      ctx.addIssue({
        code: "custom",
        path: ["code"],
        message: v.method === "totp" ? TOTP_MESSAGE : RECOVERY_MESSAGE,
      });
    }
  });
export type VerifyCodeInput = z.input<typeof VerifyCodeSchema>;
export type VerifyCode = z.output<typeof VerifyCodeSchema>;

/** The first code from the app, which confirms the enrolment. */
export const ConfirmTwoFactorSchema = z.object({
  code: z
    .string()
    .trim()
    .min(1, { message: "Authentication Code is required" })
    .max(64)
    .refine(isTotpCode, { message: TOTP_MESSAGE }),
});
export type ConfirmTwoFactor = z.infer<typeof ConfirmTwoFactorSchema>;

/** Enrolling, new recovery codes and turning two-factor off all ask for the current password. */
export const CurrentPasswordSchema = z.object({
  password: z.string().min(1, { message: "Password is required" }).max(PASSWORD_MAX_LENGTH),
});
export type CurrentPassword = z.infer<typeof CurrentPasswordSchema>;

/** A new enrolment: the otpauth:// URI for the QR code and the same secret to type in by hand. */
export const TwoFactorEnrolmentSchema = z.object({ otpauthUri: z.string(), manualKey: z.string() });
export type TwoFactorEnrolment = z.infer<typeof TwoFactorEnrolmentSchema>;

/** Recovery codes, shown once: after the enrolment is confirmed and when they are renewed. */
export const RecoveryCodesSchema = z.object({ recoveryCodes: z.array(z.string()) });
export type RecoveryCodes = z.infer<typeof RecoveryCodesSchema>;

/** The account page's two-factor section. */
export const TwoFactorStatusSchema = z.object({
  enabled: z.boolean(),
  /** The user's role or company requires it (then it cannot be turned off). */
  required: z.boolean(),
  /** Unused recovery codes; null while two-factor sign-in is off. */
  recoveryCodesLeft: z.number().int().nullable(),
  can: z.object({ enable: z.boolean(), disable: z.boolean(), regenerateRecoveryCodes: z.boolean() }),
});
export type TwoFactorStatus = z.infer<typeof TwoFactorStatusSchema>;

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
  /** Two-factor sign-in: on for this user; required by the role or the company; required but not set up. */
  twoFactorEnabled: z.boolean(),
  twoFactorRequired: z.boolean(),
  twoFactorSetupRequired: z.boolean(),
  capabilities: z.array(z.enum(CAPABILITIES)),
  /** Set while a super-admin is viewing the app as this user ("mimic"). */
  impersonator: z.object({ id: z.uuid(), name: z.string(), email: z.string() }).nullable(),
});
export type Me = z.infer<typeof MeSchema> & { capabilities: Capability[] };
