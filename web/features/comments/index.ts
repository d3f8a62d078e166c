// The comments feature's public face: the permit's Comments & Notes card.
export { CommentsCard } from "./components/comments-card.tsx";
