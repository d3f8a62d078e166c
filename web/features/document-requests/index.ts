// The document requests' public face (issue 27): the permit's or bond's Requests card (review,
// revoke) and the page header's 'Request Document' button with its dialog. The party's page
// (/request/:token) is a route of its own, loaded by the router alone.
export { RequestDocumentButton, RequestsCard } from "./components/requests-card.tsx";
// The nav's count of requests awaiting review (the company-wide Requests page is a route).
export { useAwaitingReviewCount } from "./api/request-queue.ts";
// The state chip of a request, for the other screens that list requests (the project dashboard).
export { RequestStateChip } from "./components/request-item.tsx";
