-- The audit trail is append-only (DESIGN.md section 4): no UPDATE ever, and no DELETE except the
-- cascade that removes a whole company (a cascaded delete runs inside the foreign key's trigger,
-- so pg_trigger_depth() is above 1 there).
CREATE OR REPLACE FUNCTION audit_append_only() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    RAISE EXCEPTION 'audit rows are append-only (%.%)', TG_TABLE_NAME, TG_OP USING ERRCODE = 'insufficient_privilege';
  END IF;
  IF pg_trigger_depth() < 2 THEN
    RAISE EXCEPTION 'audit rows are append-only (%.%)', TG_TABLE_NAME, TG_OP USING ERRCODE = 'insufficient_privilege';
  END IF;
  RETURN OLD;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER permit_audit_append_only BEFORE UPDATE OR DELETE ON permit_audit
  FOR EACH ROW EXECUTE FUNCTION audit_append_only();
--> statement-breakpoint
CREATE TRIGGER audit_events_append_only BEFORE UPDATE OR DELETE ON audit_events
  FOR EACH ROW EXECUTE FUNCTION audit_append_only();
