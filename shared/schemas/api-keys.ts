import { z } from "zod";
import { optionalDate, optionalId, requiredText } from "./fields.ts";

// API keys (issue 30, item 5): the Admin area 'API Keys'. A key acts as a company admin or a
// company user of its company (never a super-admin); its value is answered once, by the create.

export const API_KEY_ROLES = ["company-admin", "company-user"] as const;
export type ApiKeyRole = (typeof API_KEY_ROLES)[number];
export const API_KEY_NAME_MAX = 100;
export const API_KEY_ROLE_MESSAGE = "Role must be Company Admin or Company User";
export const API_KEY_NAME_TAKEN = "An API key with this name already exists";
export const API_KEY_EXPIRES_PAST = "Expires must be today or later";
export const API_KEY_STATUSES = ["active", "expired", "revoked"] as const;

export const ApiKeyListQuerySchema = z.object({
  /** A super-admin names the company; everyone else sees their own. */
  company_id: optionalId(),
});

/** POST /api/api-keys ('Create API Key'). */
export const ApiKeyInputSchema = z.object({
  /** Super-admin only, and required for them. */
  company_id: optionalId(),
  name: requiredText("Name", API_KEY_NAME_MAX),
  role: z.enum(API_KEY_ROLES, { message: API_KEY_ROLE_MESSAGE }),
  /** The last day the key works (it stops at the start of the next day, UTC); empty: never expires. */
  expires_on: optionalDate("Expires"),
});
export type ApiKeyInput = z.output<typeof ApiKeyInputSchema>;
export type ApiKeyFormValues = z.input<typeof ApiKeyInputSchema>;

/** A key as listed: never its value, never its hash. */
export const ApiKeySchema = z.object({
  id: z.uuid(),
  company_id: z.uuid(),
  name: z.string(),
  role: z.enum(API_KEY_ROLES),
  /** The key's first characters ("ptk_AbCd1234"), to tell keys apart. */
  prefix: z.string(),
  created_at: z.string(),
  created_by_name: z.string(),
  expires_on: z.string().nullable(),
  last_used_at: z.string().nullable(),
  revoked_at: z.string().nullable(),
  status: z.enum(API_KEY_STATUSES),
  can: z.object({ revoke: z.boolean() }),
});
export type ApiKey = z.infer<typeof ApiKeySchema>;

export const ApiKeyListSchema = z.object({
  api_keys: z.array(ApiKeySchema),
  can: z.object({ create: z.boolean() }),
});
export type ApiKeyList = z.infer<typeof ApiKeyListSchema>;

/** The create's answer: the key itself, this once. */
export const ApiKeyCreatedSchema = z.object({ api_key: ApiKeySchema, key: z.string() });
export type ApiKeyCreated = z.infer<typeof ApiKeyCreatedSchema>;

export const ApiKeyResponseSchema = z.object({ api_key: ApiKeySchema });
