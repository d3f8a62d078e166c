/** The calendar feature's public face: its routes (the feed and the feed-token settings). */
export { calendarRoutes } from "./calendar.routes.ts";
