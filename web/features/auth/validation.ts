import { ResetPasswordSchema, SignInSchema, VerifyCodeSchema } from "../../../shared/schemas/auth.ts";
import { zodResolver } from "../../lib/zod-resolver.ts";

// Loaded on demand by the sign-in and reset screens (see web/lib/lazy-resolver.ts).
export const signInResolver = zodResolver(SignInSchema);
export const resetPasswordResolver = zodResolver(ResetPasswordSchema);
export const verifyCodeResolver = zodResolver(VerifyCodeSchema);
