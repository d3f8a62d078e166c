// The document reader's face on the screens (issue 28): the 'Suggested from <file>' panel on the
// permit form (a staged read of the chosen file), on a permit's or bond's page (accepted through the
// permit's normal edit) and beside what a party typed in a request's review. Staff only.
export { PermitDocumentSuggestions } from "./components/permit-suggestions.tsx";
export { RequestSuggestions } from "./components/request-suggestions.tsx";
export { StagedSuggestions, type StagedSuggestionsProps } from "./components/staged-suggestions.tsx";
export { SuggestionsPanel } from "./components/suggestions-panel.tsx";
export type { CurrentValues } from "./suggestion-values.ts";
