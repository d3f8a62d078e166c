/**
 * The auth feature's public face: sign-in (with the code step of two-factor sign-in), sign-out,
 * /api/me, the forced password reset, and the user's own two-factor settings.
 */
export { authRoutes } from "./auth.routes.ts";
export { twoFactorRoutes } from "./two-factor.routes.ts";
