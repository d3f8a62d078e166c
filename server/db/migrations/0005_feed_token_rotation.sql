-- A calendar feed URL is a bearer credential: it must not outlive the account state it was made for.
-- Whatever path changes a user's password, role or company (admin edit, forced reset, a future
-- route), the database itself drops the feed token, so the old URL stops working at once; the owner
-- makes a new one from the feed dialog.
CREATE OR REPLACE FUNCTION permitrack_revoke_feed_on_user_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.role IS DISTINCT FROM OLD.role OR NEW.company_id IS DISTINCT FROM OLD.company_id THEN
    NEW.calendar_token := NULL;
  END IF;
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER users_revoke_feed_on_change BEFORE UPDATE OF role, company_id ON users
  FOR EACH ROW EXECUTE FUNCTION permitrack_revoke_feed_on_user_change();--> statement-breakpoint
CREATE OR REPLACE FUNCTION permitrack_revoke_feed_on_password() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' OR NEW.password IS DISTINCT FROM OLD.password THEN
    UPDATE users SET calendar_token = NULL WHERE id = NEW.user_id AND calendar_token IS NOT NULL;
  END IF;
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER accounts_revoke_feed_on_password AFTER INSERT OR UPDATE OF password ON accounts
  FOR EACH ROW EXECUTE FUNCTION permitrack_revoke_feed_on_password();
