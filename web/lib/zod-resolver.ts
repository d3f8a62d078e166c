// zod's wording for field errors whose schema names none (shared/schemas/messages.ts) is a global
// setting: every form of the web app validates through this module, so it is in place before the
// first check, and the start-up code (the sign-in page, the first list) carries no zod at all.
import "../../shared/schemas/messages.ts";

export { zodResolver } from "@hookform/resolvers/zod";
