// The calendar feature's public face: the header's calendar feed button (the private iCalendar feed).
export { CalendarFeedButton } from "./components/calendar-feed-button.tsx";
