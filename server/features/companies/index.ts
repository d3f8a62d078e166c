/** The companies feature's public face: its routes and the URL of a company's logo. */
export { companiesRoutes } from "./companies.routes.ts";
export { companyLogoUrl } from "./logo-url.ts";
