// The reminders feature's public face: the permit's Reminders card (which reminder e-mails went out).
export { RemindersCard } from "./components/reminders-card.tsx";
