import { useState } from "react";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import { packetUrl, usePacketRecipients, type PacketOwner } from "../api/packets.ts";
import { MonthlyPacketDialog } from "./monthly-packet-dialog.tsx";
import { ShareStatusDialog } from "./share-status-dialog.tsx";

/** The project dashboard's packet buttons: download, share (staff), monthly e-mail (project managers). */
export function ProjectPacketActions({ projectId, name }: { projectId: string; name: string }) {
  const owner: PacketOwner = { kind: "projects", id: projectId, name };
  const settings = usePacketRecipients(projectId);
  const [sharing, setSharing] = useState(false);
  const [monthly, setMonthly] = useState(false);
  const can = settings.data?.can;
  return (
    <Box sx={{ display: "flex", gap: 1, flexWrap: "wrap" }}>
      <Button variant="outlined" component="a" href={packetUrl(owner)} download>
        Download Compliance Packet
      </Button>
      {can?.share ? (
        <Button variant="outlined" onClick={() => setSharing(true)}>
          Share Status
        </Button>
      ) : null}
      {can?.recipients ? (
        <Button variant="outlined" onClick={() => setMonthly(true)}>
          Monthly Packet{settings.data?.emails.length ? ` (${settings.data.emails.length})` : ""}
        </Button>
      ) : null}
      {can?.share && sharing ? (
        <ShareStatusDialog owner={owner} open onClose={() => setSharing(false)} />
      ) : null}
      {can?.recipients && monthly ? (
        <MonthlyPacketDialog
          projectId={projectId}
          emails={settings.data?.emails ?? []}
          open={monthly}
          onClose={() => setMonthly(false)}
        />
      ) : null}
    </Box>
  );
}

/** A client's packet buttons (the client admin's row): download and share. */
export function ClientPacketActions({ clientId, name }: { clientId: string; name: string }) {
  const owner: PacketOwner = { kind: "clients", id: clientId, name };
  const [sharing, setSharing] = useState(false);
  return (
    <>
      <Button
        size="small"
        component="a"
        href={packetUrl(owner)}
        download
        aria-label={`Download Compliance Packet of ${name}`}
      >
        Download Compliance Packet
      </Button>
      <Button size="small" onClick={() => setSharing(true)} aria-label={`Share Status of ${name}`}>
        Share Status
      </Button>
      {sharing ? <ShareStatusDialog owner={owner} open onClose={() => setSharing(false)} /> : null}
    </>
  );
}

/**
 * A client's packet across its projects, on the permit list's client headings: for everyone who reads
 * that client's permits (a client-user too, who has no Clients page). On a white ground whatever the
 * heading's tint, for the contrast.
 */
export function ClientPacketLink({ clientId, name }: { clientId: string; name: string }) {
  return (
    <Button
      size="small"
      variant="outlined"
      component="a"
      href={packetUrl({ kind: "clients", id: clientId, name })}
      download
      aria-label={`Download Compliance Packet of ${name}`}
      sx={{ bgcolor: "background.paper", "&:hover": { bgcolor: "background.paper" }, whiteSpace: "nowrap" }}
    >
      Compliance Packet
    </Button>
  );
}
