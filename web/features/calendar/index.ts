// The reminders feature's public face: the header's calendar feed button.
export { CalendarFeedButton } from "./components/calendar-feed-button.tsx";
