import { useState } from "react";
import IconButton from "@mui/material/IconButton";
import Tooltip from "@mui/material/Tooltip";
import CalendarIcon from "@mui/icons-material/CalendarMonthOutlined";
import { CalendarFeedDialog } from "./calendar-feed-dialog.tsx";

/** Header button, for every signed-in user, that opens the calendar feed dialog. */
export function CalendarFeedButton() {
  const [isOpen, setIsOpen] = useState(false);
  return (
    <>
      <Tooltip title="Calendar feed">
        <IconButton color="inherit" aria-label="Calendar feed" onClick={() => setIsOpen(true)}>
          <CalendarIcon />
        </IconButton>
      </Tooltip>
      <CalendarFeedDialog open={isOpen} onClose={() => setIsOpen(false)} />
    </>
  );
}
