CREATE TABLE "permit_inspections" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"permit_id" uuid NOT NULL,
	"inspection_type" text NOT NULL,
	"inspected_on" date NOT NULL,
	"result" text NOT NULL,
	"inspector" text,
	"notes" text,
	"created_by" uuid,
	"created_by_name" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "permit_inspections_result_check" CHECK ("permit_inspections"."result" in ('Passed','Failed','Partial','Cancelled'))
);
--> statement-breakpoint
CREATE TABLE "permit_terms" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"permit_id" uuid NOT NULL,
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "permit_terms_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"term_no" integer NOT NULL,
	"kind" text NOT NULL,
	"permit_number" text NOT NULL,
	"issue_date" date,
	"expiration_date" date,
	"ended_on" date,
	"renewal_fee" numeric(12, 2),
	"note" text,
	"reason" text,
	"inspection_id" uuid,
	"attachment_id" uuid,
	"created_by" uuid,
	"created_by_name" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "permit_terms_kind_check" CHECK ("permit_terms"."kind" in ('original','renewal','extension')),
	CONSTRAINT "permit_terms_fee_check" CHECK ("permit_terms"."renewal_fee" is null or "permit_terms"."renewal_fee" >= 0)
);
--> statement-breakpoint
DROP INDEX "reminder_deliveries_key_uq";--> statement-breakpoint
ALTER TABLE "company_preferences" ADD COLUMN "escalation_days" integer DEFAULT 7 NOT NULL;--> statement-breakpoint
ALTER TABLE "company_preferences" ADD COLUMN "overdue_digest" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "permit_templates" ADD COLUMN "expiry_rule" text DEFAULT 'fixed' NOT NULL;--> statement-breakpoint
ALTER TABLE "permit_templates" ADD COLUMN "expiry_days" integer;--> statement-breakpoint
ALTER TABLE "permit_templates" ADD COLUMN "renewal_lead_days" integer;--> statement-breakpoint
ALTER TABLE "permits" ADD COLUMN "responsible_user_id" uuid;--> statement-breakpoint
ALTER TABLE "permits" ADD COLUMN "expiry_rule" text DEFAULT 'fixed' NOT NULL;--> statement-breakpoint
ALTER TABLE "permits" ADD COLUMN "expiry_days" integer;--> statement-breakpoint
ALTER TABLE "permits" ADD COLUMN "renewal_lead_days" integer;--> statement-breakpoint
ALTER TABLE "permits" ADD COLUMN "renew_by_date" date GENERATED ALWAYS AS (case when renewal_lead_days is null then null else expiration_date - renewal_lead_days end) STORED;--> statement-breakpoint
ALTER TABLE "permits" ADD COLUMN "term_no" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "permits" ADD COLUMN "acknowledged_by_id" uuid;--> statement-breakpoint
ALTER TABLE "permits" ADD COLUMN "acknowledged_by_name" text;--> statement-breakpoint
ALTER TABLE "permits" ADD COLUMN "acknowledged_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "permits" ADD COLUMN "final_status" text;--> statement-breakpoint
ALTER TABLE "reminder_deliveries" ADD COLUMN "kind" text DEFAULT 'reminder' NOT NULL;--> statement-breakpoint
ALTER TABLE "reminder_deliveries" ADD COLUMN "term_no" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "permit_inspections" ADD CONSTRAINT "permit_inspections_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "permit_inspections" ADD CONSTRAINT "permit_inspections_permit_id_permits_id_fk" FOREIGN KEY ("permit_id") REFERENCES "public"."permits"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "permit_inspections" ADD CONSTRAINT "permit_inspections_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "permit_terms" ADD CONSTRAINT "permit_terms_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "permit_terms" ADD CONSTRAINT "permit_terms_permit_id_permits_id_fk" FOREIGN KEY ("permit_id") REFERENCES "public"."permits"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "permit_terms" ADD CONSTRAINT "permit_terms_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "permit_inspections_permit_idx" ON "permit_inspections" USING btree ("permit_id","inspected_on");--> statement-breakpoint
CREATE INDEX "permit_terms_permit_idx" ON "permit_terms" USING btree ("permit_id","seq");--> statement-breakpoint
ALTER TABLE "permits" ADD CONSTRAINT "permits_responsible_user_id_users_id_fk" FOREIGN KEY ("responsible_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "permits" ADD CONSTRAINT "permits_acknowledged_by_id_users_id_fk" FOREIGN KEY ("acknowledged_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "permits_company_responsible_idx" ON "permits" USING btree ("company_id","responsible_user_id");--> statement-breakpoint
CREATE INDEX "permits_company_renew_by_idx" ON "permits" USING btree ("company_id","renew_by_date");--> statement-breakpoint
CREATE UNIQUE INDEX "reminder_deliveries_escalation_uq" ON "reminder_deliveries" USING btree ("permit_id","term_no","recipient_user_id") WHERE kind = 'escalation';--> statement-breakpoint
CREATE UNIQUE INDEX "reminder_deliveries_overdue_uq" ON "reminder_deliveries" USING btree ("permit_id","term_no","recipient_user_id","due_date") WHERE kind = 'overdue';--> statement-breakpoint
CREATE UNIQUE INDEX "reminder_deliveries_key_uq" ON "reminder_deliveries" USING btree ("permit_id","threshold","expiration_date","recipient_user_id") WHERE kind = 'reminder';--> statement-breakpoint
ALTER TABLE "permit_templates" ADD CONSTRAINT "permit_templates_expiry_rule_check" CHECK ("permit_templates"."expiry_rule" in ('fixed','after_inspection'));--> statement-breakpoint
ALTER TABLE "permit_templates" ADD CONSTRAINT "permit_templates_expiry_days_check" CHECK (("permit_templates"."expiry_rule" = 'fixed' and "permit_templates"."expiry_days" is null) or ("permit_templates"."expiry_rule" = 'after_inspection' and "permit_templates"."expiry_days" between 1 and 3650));--> statement-breakpoint
ALTER TABLE "permit_templates" ADD CONSTRAINT "permit_templates_lead_days_check" CHECK ("permit_templates"."renewal_lead_days" is null or "permit_templates"."renewal_lead_days" between 0 and 365);--> statement-breakpoint
ALTER TABLE "permits" ADD CONSTRAINT "permits_expiry_rule_check" CHECK ("permits"."expiry_rule" in ('fixed','after_inspection'));--> statement-breakpoint
ALTER TABLE "permits" ADD CONSTRAINT "permits_expiry_days_check" CHECK (("permits"."expiry_rule" = 'fixed' and "permits"."expiry_days" is null) or ("permits"."expiry_rule" = 'after_inspection' and "permits"."expiry_days" between 1 and 3650));--> statement-breakpoint
ALTER TABLE "permits" ADD CONSTRAINT "permits_lead_days_check" CHECK ("permits"."renewal_lead_days" is null or "permits"."renewal_lead_days" between 0 and 365);--> statement-breakpoint
ALTER TABLE "permits" ADD CONSTRAINT "permits_term_no_check" CHECK ("permits"."term_no" >= 1);--> statement-breakpoint
ALTER TABLE "permits" ADD CONSTRAINT "permits_final_status_check" CHECK ("permits"."final_status" is null or "permits"."final_status" in ('Finaled','Completed','Withdrawn','Cancelled','Expired'));--> statement-breakpoint
ALTER TABLE "reminder_deliveries" ADD CONSTRAINT "reminder_deliveries_kind_check" CHECK ("reminder_deliveries"."kind" in ('reminder','escalation','overdue'));--> statement-breakpoint
-- Every permit so far has had one term: record it as the original, so the Terms table starts complete.
INSERT INTO "permit_terms" ("company_id", "permit_id", "term_no", "kind", "permit_number", "issue_date", "expiration_date", "created_by", "created_at")
SELECT "company_id", "id", 1, 'original', "permit_number", "issue_date", "expiration_date", "created_by", "created_at" FROM "permits";
--> statement-breakpoint
-- Every new permit starts its original term, whichever path inserts it (form, import, templates,
-- a script): one statement-level trigger, one INSERT ... SELECT however many rows came in.
CREATE OR REPLACE FUNCTION permitrack_original_terms() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO permit_terms (company_id, permit_id, term_no, kind, permit_number, issue_date, expiration_date, created_by, created_at)
  SELECT n.company_id, n.id, n.term_no, 'original', n.permit_number, n.issue_date, n.expiration_date, n.created_by, n.created_at
  FROM new_permits n;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER permits_original_terms AFTER INSERT ON permits
  REFERENCING NEW TABLE AS new_permits FOR EACH STATEMENT EXECUTE FUNCTION permitrack_original_terms();
