import Badge from "@mui/material/Badge";
import Box from "@mui/material/Box";
import type { NavLink as NavLinkItem } from "../../../shared/domain/permissions.ts";
import { useAwaitingReviewCount } from "../../features/document-requests/index.ts";
import { formatCount } from "../../lib/format.ts";
import { paths } from "../../lib/paths.ts";

/** 'Requests' with the number of document requests awaiting review (issue 27), when there are any. */
function RequestsLabel({ label }: { label: string }) {
  const count = useAwaitingReviewCount().data ?? 0;
  if (!count) return <>{label}</>;
  return (
    <Box component="span" sx={{ display: "inline-flex", alignItems: "center", gap: 1.25 }}>
      {label}
      <Badge
        badgeContent={formatCount(count)}
        color="warning"
        max={999}
        aria-hidden
        data-testid="awaiting-review-count"
        sx={{ "& .MuiBadge-badge": { position: "static", transform: "none", fontWeight: 700 } }}
      />
      <Box component="span" sx={visuallyHidden}>
        {`, ${count} awaiting review`}
      </Box>
    </Box>
  );
}

const visuallyHidden = {
  position: "absolute",
  width: 1,
  height: 1,
  overflow: "hidden",
  clip: "rect(0 0 0 0)",
  whiteSpace: "nowrap",
} as const;

/** A nav link's text: its label, and for 'Requests' the count of requests awaiting review. */
export function NavLinkLabel({ link }: { link: NavLinkItem }) {
  return link.to === paths.requests ? <RequestsLabel label={link.label} /> : <>{link.label}</>;
}
