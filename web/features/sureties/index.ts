// The sureties feature's public face (issue 12): the one sureties lookup and the bond form's field.
export { suretiesQueryKey, useSureties } from "./api/list-sureties.ts";
export { SuretyField } from "./components/surety-field.tsx";
