import { useState } from "react";
import { Link as RouterLink } from "react-router";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Link from "@mui/material/Link";
import Typography from "@mui/material/Typography";
import BuildOutlined from "@mui/icons-material/BuildOutlined";
import ShieldOutlined from "@mui/icons-material/ShieldOutlined";
import { BOND_STATUS_LABELS } from "../../../../shared/domain/bonds.ts";
import type { BondLedger, LinkedBond } from "../../../../shared/schemas/bonds.ts";
import type { PermitDetail } from "../../../../shared/schemas/permits.ts";
import { DetailCard, FieldGrid } from "../../../components/detail-card.tsx";
import { formatAmount } from "../../../lib/format.ts";
import { paths } from "../../../lib/paths.ts";
import { MaintenanceBondDialog } from "./maintenance-bond-dialog.tsx";

/** "P-1042 · Main Street Maintenance (Active, $12,500.00)": a linked bond, as a link to its page. */
function LinkedBondLine({ label, bond, currency }: { label: string; bond: LinkedBond; currency: string }) {
  const facts = [
    bond.status ? BOND_STATUS_LABELS[bond.status] : null,
    formatAmount(bond.current_amount, currency),
  ].filter(Boolean);
  return (
    <Typography variant="body2" sx={{ overflowWrap: "anywhere" }}>
      {label}:{" "}
      <Link component={RouterLink} to={paths.permit(bond.id)} sx={{ fontWeight: 600 }}>
        {bond.bond_number ?? bond.permit_number} · {bond.permit_name}
      </Link>
      {facts.length ? (
        <Typography component="span" variant="body2" sx={{ color: "text.secondary" }}>
          {" "}
          ({facts.join(", ")})
        </Typography>
      ) : null}
    </Typography>
  );
}

/**
 * Bond Details: the surety, number and type, and the link between a performance bond and its
 * maintenance bond, both ways; 'Start Maintenance Bond' on a performance bond once work is accepted.
 */
export function BondDetailsCard({
  permit,
  ledger,
  today,
  currency,
}: {
  permit: PermitDetail;
  ledger: BondLedger | undefined;
  today: string;
  /** The company's currency (ISO 4217), of the bond's amount while the ledger is not there. */
  currency: string;
}) {
  const [isStarting, setIsStarting] = useState(false);
  const canStart = !!ledger?.can.start_maintenance_bond;
  return (
    <DetailCard title="Bond Details" icon={<ShieldOutlined />}>
      <FieldGrid
        items={[
          { label: "Surety Company", value: ledger?.surety?.name ?? permit.surety_company },
          { label: "Bond Number", value: permit.bond_number },
          { label: "Guarantee Type", value: permit.guarantee_type },
          ...(ledger ? [] : [{ label: "Bond Amount", value: formatAmount(permit.bond_amount, currency) }]),
        ]}
      />
      {ledger?.maintenance_bond || ledger?.performance_bond ? (
        <Box sx={{ display: "grid", gap: 0.5, mt: 2, pt: 1.5, borderTop: 1, borderColor: "divider" }}>
          {ledger.maintenance_bond ? (
            <LinkedBondLine
              label="Maintenance bond"
              bond={ledger.maintenance_bond}
              currency={ledger.currency}
            />
          ) : null}
          {ledger.performance_bond ? (
            <LinkedBondLine
              label="Performance bond"
              bond={ledger.performance_bond}
              currency={ledger.currency}
            />
          ) : null}
        </Box>
      ) : null}
      {canStart ? (
        // In the card's body, not its header: the caption is too long for a phone's header row.
        <Box sx={{ mt: 2, pt: 2, borderTop: 1, borderColor: "divider" }}>
          <Button variant="outlined" startIcon={<BuildOutlined />} onClick={() => setIsStarting(true)}>
            Start Maintenance Bond
          </Button>
        </Box>
      ) : null}
      {canStart && ledger ? (
        <MaintenanceBondDialog
          permitId={permit.id}
          ledger={ledger}
          today={today}
          open={isStarting}
          onClose={() => setIsStarting(false)}
        />
      ) : null}
    </DetailCard>
  );
}
