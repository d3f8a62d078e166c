import { z } from "zod";
import { ROLES } from "../domain/roles.ts";
import { uuid } from "./fields.ts";

export const ImpersonationCandidateSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  email: z.string(),
  role: z.enum(ROLES),
});
export type ImpersonationCandidate = z.infer<typeof ImpersonationCandidateSchema>;

/** GET /api/impersonation/candidates: the users a super-admin may view as, grouped by company name. */
export const ImpersonationCandidatesSchema = z.object({
  groups: z.array(z.object({ companyName: z.string(), users: z.array(ImpersonationCandidateSchema) })),
});
export type ImpersonationCandidates = z.infer<typeof ImpersonationCandidatesSchema>;

export const StartImpersonationSchema = z.object({ userId: uuid() });

export const ImpersonationResultSchema = z.object({
  user: z.object({ id: z.uuid(), name: z.string(), email: z.string() }),
});
