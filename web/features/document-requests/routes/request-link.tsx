import { useParams } from "react-router";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import CircularProgress from "@mui/material/CircularProgress";
import Typography from "@mui/material/Typography";
import CheckCircle from "@mui/icons-material/CheckCircle";
import DoNotDisturbOn from "@mui/icons-material/DoNotDisturbOnOutlined";
import Schedule from "@mui/icons-material/Schedule";
import { errorMessage } from "../../../lib/api.ts";
import { usePageTitle } from "../../../lib/page-title.ts";
import { linkLogoUrl, useRequestLink } from "../api/request-link.ts";
import type { ClosedLink, RequestLink } from "../api/types.ts";
import { LinkFilePicker } from "../components/link-files.tsx";
import { LinkForm } from "../components/link-form.tsx";
import { askedFor, LinkFrame, LinkHeading, RequestSummary } from "../components/link-frame.tsx";

/** The big mark above a closing page's heading. */
function Mark({ tone, icon: Icon }: { tone: "success" | "info" | "action"; icon: typeof CheckCircle }) {
  return (
    <Icon
      aria-hidden
      sx={{ fontSize: 56, mb: 1, color: tone === "action" ? "text.secondary" : `${tone}.main` }}
    />
  );
}

function ClosedPage({ closed }: { closed: ClosedLink }) {
  const expired = closed.state === "expired";
  return (
    <LinkFrame company={closed.company.name}>
      <Mark tone={expired ? "info" : "action"} icon={expired ? Schedule : DoNotDisturbOn} />
      <LinkHeading
        lead={
          expired
            ? `Ask ${closed.company.name} to send you a new link if they still need the document.`
            : `${closed.company.name} no longer needs this document. There is nothing more to do.`
        }
      >
        {expired ? "This link has expired" : "This request was withdrawn"}
      </LinkHeading>
    </LinkFrame>
  );
}

function OpenPage({ token, link }: { token: string; link: RequestLink }) {
  const { request, company } = link;
  const logo = company.hasLogo ? linkLogoUrl(token) : null;
  const what = askedFor(request);
  if (link.state === "approved") {
    return (
      <LinkFrame company={company.name} logoUrl={logo}>
        <Mark tone="success" icon={CheckCircle} />
        <LinkHeading
          lead={`${company.name} has accepted the ${what.toLowerCase()} you sent. You can close this page.`}
        >
          Thank you — this request is complete
        </LinkHeading>
        <RequestSummary request={{ ...request, message: null, dueDate: null }} />
      </LinkFrame>
    );
  }
  if (link.state === "submitted") {
    return (
      <LinkFrame company={company.name} logoUrl={logo}>
        <Mark tone="success" icon={CheckCircle} />
        <LinkHeading
          lead={`${company.name} will review what you sent. You can still add a file until they do.`}
        >
          Submitted, pending review
        </LinkHeading>
        <RequestSummary request={{ ...request, message: null, dueDate: null }} />
        <LinkFilePicker token={token} files={link.files} label="Document file" />
      </LinkFrame>
    );
  }
  return (
    <LinkFrame company={company.name} logoUrl={logo}>
      <LinkHeading lead={`${company.name} asks you to send this document.`}>{what}</LinkHeading>
      {request.rejectReason ? (
        <Alert severity="warning" sx={{ mb: 2.5 }}>
          <strong>What you sent last time was not accepted:</strong> {request.rejectReason}
          <br />
          Please upload the document again.
        </Alert>
      ) : null}
      <RequestSummary request={request} />
      <LinkForm token={token} link={link} />
    </LinkFrame>
  );
}

/**
 * /request/:token, outside the session guard: the page an outside party (an agency clerk, a surety
 * agent) reaches from a document request's e-mail, on a phone as often as not. It shows what is
 * asked and takes the files and the requested values; an expired, withdrawn or completed request
 * shows its own page. Its chunk stays small (no dialogs, no form library, no zod, three icons): it
 * must paint fast on a cold browser.
 */
export default function RequestLinkPage() {
  const { token = "" } = useParams();
  const page = useRequestLink(token);
  usePageTitle(
    page.data?.kind === "open" ? `Document Request · ${page.data.link.company.name}` : "Document Request",
  );
  if (page.isPending) {
    return (
      <LinkFrame>
        <Box
          role="status"
          sx={{ display: "flex", alignItems: "center", justifyContent: "center", gap: 1.5, py: 2 }}
        >
          <CircularProgress size={22} aria-hidden />
          <Typography>Loading...</Typography>
        </Box>
      </LinkFrame>
    );
  }
  if (page.isError) {
    return (
      <LinkFrame>
        <LinkHeading>Document Request</LinkHeading>
        <Alert severity="warning">{errorMessage(page.error)}</Alert>
      </LinkFrame>
    );
  }
  return page.data.kind === "closed" ? (
    <ClosedPage closed={page.data.closed} />
  ) : (
    <OpenPage token={token} link={page.data.link} />
  );
}
