/** The browser's paths live in shared/domain/paths.ts (the server's e-mails and calendar use them too). */
export { paths } from "../../shared/domain/paths.ts";
