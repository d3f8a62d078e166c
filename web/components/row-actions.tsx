import type { ReactNode } from "react";
import { Link as RouterLink } from "react-router";
import IconButton from "@mui/material/IconButton";
import TableCell from "@mui/material/TableCell";
import Tooltip from "@mui/material/Tooltip";
import DeleteIcon from "@mui/icons-material/DeleteOutlined";
import EditIcon from "@mui/icons-material/EditOutlined";

export interface RowActionsProps {
  /** Names the row in the buttons' accessible names: "Edit Acme", "Delete Acme". */
  name: string;
  /** The record's own `can` flags from the API: a button shows only when the server allows it. */
  can: { edit: boolean; delete: boolean };
  /** Edit is a link to this path... */
  editTo?: string;
  /** ...or, without one, a button (inline editing). */
  onEdit?: () => void;
  onDelete: () => void;
  /**
   * Why Delete cannot be done now though the role may ("In use by 2 bonds"): Delete shows disabled,
   * saying so, instead of offering a delete the server would refuse.
   */
  deleteBlockedBy?: string | null;
  /** Small icons for dense tables. */
  size?: "small";
  /** Actions of the row's own shown before Edit. */
  children?: ReactNode;
  /** Outside a table (a phone's card): the buttons alone, not in a table cell. */
  isInline?: boolean;
}

/** The Actions cell of an admin table: Edit and Delete icons, each shown from the record's `can`. */
export function RowActions({
  name,
  can,
  editTo,
  onEdit,
  onDelete,
  deleteBlockedBy,
  size,
  children,
  isInline = false,
}: RowActionsProps) {
  const buttons = (
    <>
      {children}
      {can.edit ? (
        <Tooltip title="Edit">
          {editTo ? (
            <IconButton component={RouterLink} to={editTo} aria-label={`Edit ${name}`} size={size}>
              <EditIcon fontSize={size} />
            </IconButton>
          ) : (
            <IconButton onClick={onEdit} aria-label={`Edit ${name}`} size={size}>
              <EditIcon fontSize={size} />
            </IconButton>
          )}
        </Tooltip>
      ) : null}
      {can.delete && deleteBlockedBy ? (
        // Focusable (aria-disabled, not disabled), so the reason reaches the keyboard and screen readers.
        <Tooltip title={`Cannot delete: ${deleteBlockedBy}`} describeChild>
          <IconButton
            aria-label={`Delete ${name}`}
            aria-disabled="true"
            size={size}
            sx={{ color: "action.disabled", cursor: "not-allowed" }}
          >
            <DeleteIcon fontSize={size} />
          </IconButton>
        </Tooltip>
      ) : can.delete ? (
        <Tooltip title="Delete">
          <IconButton onClick={onDelete} aria-label={`Delete ${name}`} size={size}>
            <DeleteIcon fontSize={size} />
          </IconButton>
        </Tooltip>
      ) : null}
    </>
  );
  if (isInline) return buttons;
  return (
    <TableCell align="right" sx={{ whiteSpace: "nowrap" }}>
      {buttons}
    </TableCell>
  );
}
