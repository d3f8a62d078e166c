// The saved views feature's public face: the All Permits list's views bar (built-in views, the
// user's own, 'Save view').
export { SavedViewsBar } from "./components/saved-views-bar.tsx";
