import { meQueryKey } from "../../../lib/session.tsx";

/** The account page's queries; under "me" so that signing out or in clears them with the session. */
export const twoFactorQueryKey = [...meQueryKey, "two-factor"] as const;
