import { useState, type ReactNode } from "react";
import Box from "@mui/material/Box";
import Paper from "@mui/material/Paper";
import Typography from "@mui/material/Typography";
import { formatDay } from "../../../lib/format.ts";
import type { RequestLink } from "../api/types.ts";

/**
 * The party's page frame: one card, full width on a phone, with the company that asks (its logo
 * when it has one, and its name) at the top, so the party knows at once who this is from.
 */
export function LinkFrame({
  company,
  logoUrl,
  children,
}: {
  company?: string;
  logoUrl?: string | null;
  children: ReactNode;
}) {
  const [logoFailed, setLogoFailed] = useState(false);
  return (
    <Box
      sx={{
        flex: 1,
        display: "flex",
        justifyContent: "center",
        alignItems: { xs: "flex-start", sm: "center" },
      }}
    >
      <Paper
        variant="outlined"
        sx={{ width: "100%", maxWidth: 560, p: { xs: 2.5, sm: 4 }, mt: { xs: 0, sm: 2 }, borderRadius: 3 }}
      >
        {company ? (
          <Box
            sx={{
              display: "flex",
              alignItems: "center",
              gap: 1.5,
              pb: 2,
              mb: 2.5,
              borderBottom: 1,
              borderColor: "divider",
            }}
          >
            {logoUrl && !logoFailed ? (
              <Box
                component="img"
                src={logoUrl}
                alt=""
                onError={() => setLogoFailed(true)}
                sx={{ height: 40, maxWidth: 120, objectFit: "contain" }}
              />
            ) : null}
            <Typography sx={{ fontWeight: 650, fontSize: "1.05rem", overflowWrap: "anywhere" }}>
              {company}
            </Typography>
          </Box>
        ) : null}
        {children}
      </Paper>
    </Box>
  );
}

/** The page's heading and, below it, a line in the muted colour. */
export function LinkHeading({ children, lead }: { children: ReactNode; lead?: ReactNode }) {
  return (
    <Box sx={{ mb: 2.5 }}>
      <Typography
        variant="h1"
        sx={{ fontSize: { xs: "1.4rem", sm: "1.6rem" }, fontWeight: 650, lineHeight: 1.25 }}
      >
        {children}
      </Typography>
      {lead ? (
        <Typography color="text.secondary" sx={{ mt: 0.75 }}>
          {lead}
        </Typography>
      ) : null}
    </Box>
  );
}

/** What is asked: the document, about which permit or bond, by when, and the company's message. */
export function RequestSummary({ request }: { request: RequestLink["request"] }) {
  const isBond = request.itemKind === "bond";
  const rows: [string, string | null][] = [
    [isBond ? "Bond" : "Permit", request.itemName],
    [isBond ? "Bond #" : "Permit #", request.itemNumber],
    ["Due", formatDay(request.dueDate)],
  ];
  return (
    <>
      <Box
        component="dl"
        sx={{
          m: 0,
          mb: 2,
          p: 2,
          borderRadius: 2,
          bgcolor: "action.hover",
          display: "grid",
          gridTemplateColumns: "auto minmax(0, 1fr)",
          columnGap: 2,
          rowGap: 0.75,
        }}
      >
        {rows
          .filter((row): row is [string, string] => !!row[1])
          .map(([label, value]) => (
            <Box key={label} sx={{ display: "contents" }}>
              <Typography component="dt" variant="body2" color="text.secondary">
                {label}
              </Typography>
              <Typography
                component="dd"
                variant="body2"
                sx={{ m: 0, fontWeight: 600, overflowWrap: "anywhere" }}
              >
                {value}
              </Typography>
            </Box>
          ))}
      </Box>
      {request.message ? (
        <Box
          component="blockquote"
          sx={{ m: 0, mb: 2.5, pl: 2, borderLeft: 3, borderColor: "primary.main", whiteSpace: "pre-line" }}
        >
          <Typography variant="caption" color="text.secondary" sx={{ display: "block" }}>
            Message
          </Typography>
          <Typography variant="body2" sx={{ overflowWrap: "anywhere" }}>
            {request.message}
          </Typography>
        </Box>
      ) : null}
    </>
  );
}

/** What the request asks for in a heading: the title of an 'Other', else the document's label. */
export const askedFor = (request: RequestLink["request"]) => request.title || request.documentLabel;
