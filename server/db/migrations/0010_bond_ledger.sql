-- The bond ledger (issue 12, decision 0014): sureties, a bond's append-only ledger and its
-- collateral, the bond columns on permits (surety, status, current amount, the performance bond a
-- maintenance bond follows) and the company's currency. The DDL mirrors server/db/schema.ts; the
-- trigger and the data migration at the end are written by hand.
CREATE TABLE "bond_collateral" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"permit_id" uuid NOT NULL,
	"form" text NOT NULL,
	"amount" numeric(14, 2) NOT NULL,
	"held_since" date NOT NULL,
	"released_on" date,
	"note" text,
	"created_by" uuid,
	"created_by_name" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "bond_collateral_form_check" CHECK ("bond_collateral"."form" in ('letter_of_credit','cash','other')),
	CONSTRAINT "bond_collateral_amount_check" CHECK ("bond_collateral"."amount" > 0),
	CONSTRAINT "bond_collateral_released_check" CHECK ("bond_collateral"."released_on" is null or "bond_collateral"."released_on" >= "bond_collateral"."held_since")
);
--> statement-breakpoint
CREATE TABLE "bond_ledger_entries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"permit_id" uuid NOT NULL,
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "bond_ledger_entries_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"kind" text NOT NULL,
	"change" numeric(14, 2) NOT NULL,
	"amount_after" numeric(14, 2) NOT NULL,
	"effective_date" date NOT NULL,
	"obligee_acceptance_date" date,
	"percent" numeric(5, 2),
	"reason" text,
	"document_id" uuid,
	"reverses_id" uuid,
	"created_by" uuid,
	"created_by_name" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "bond_ledger_entries_reverses_uq" UNIQUE("reverses_id"),
	CONSTRAINT "bond_ledger_entries_kind_check" CHECK ("bond_ledger_entries"."kind" in ('original','rider','reduction','release','cancellation','claim','reversal')),
	CONSTRAINT "bond_ledger_entries_amount_check" CHECK ("bond_ledger_entries"."amount_after" >= 0),
	CONSTRAINT "bond_ledger_entries_reverses_check" CHECK (("bond_ledger_entries"."kind" = 'reversal') = ("bond_ledger_entries"."reverses_id" is not null)),
	CONSTRAINT "bond_ledger_entries_percent_check" CHECK ("bond_ledger_entries"."percent" is null or ("bond_ledger_entries"."kind" = 'reduction' and "bond_ledger_entries"."percent" > 0 and "bond_ledger_entries"."percent" < 100)),
	CONSTRAINT "bond_ledger_entries_acceptance_check" CHECK ("bond_ledger_entries"."obligee_acceptance_date" is null or "bond_ledger_entries"."kind" = 'reduction')
);
--> statement-breakpoint
CREATE TABLE "sureties" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"name" text NOT NULL,
	"contact_name" text,
	"phone" text,
	"email" text,
	"single_limit" numeric(14, 2),
	"aggregate_limit" numeric(14, 2),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sureties_single_limit_check" CHECK ("sureties"."single_limit" is null or "sureties"."single_limit" >= 0),
	CONSTRAINT "sureties_aggregate_limit_check" CHECK ("sureties"."aggregate_limit" is null or "sureties"."aggregate_limit" >= 0)
);
--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "currency" text DEFAULT 'USD' NOT NULL;--> statement-breakpoint
ALTER TABLE "permits" ADD COLUMN "surety_id" uuid;--> statement-breakpoint
ALTER TABLE "permits" ADD COLUMN "bond_status" text;--> statement-breakpoint
ALTER TABLE "permits" ADD COLUMN "current_amount" numeric(14, 2);--> statement-breakpoint
ALTER TABLE "permits" ADD COLUMN "maintenance_of_id" uuid;--> statement-breakpoint
ALTER TABLE "bond_collateral" ADD CONSTRAINT "bond_collateral_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bond_collateral" ADD CONSTRAINT "bond_collateral_permit_id_permits_id_fk" FOREIGN KEY ("permit_id") REFERENCES "public"."permits"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bond_collateral" ADD CONSTRAINT "bond_collateral_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bond_ledger_entries" ADD CONSTRAINT "bond_ledger_entries_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bond_ledger_entries" ADD CONSTRAINT "bond_ledger_entries_permit_id_permits_id_fk" FOREIGN KEY ("permit_id") REFERENCES "public"."permits"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bond_ledger_entries" ADD CONSTRAINT "bond_ledger_entries_document_id_attachments_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."attachments"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bond_ledger_entries" ADD CONSTRAINT "bond_ledger_entries_reverses_id_bond_ledger_entries_id_fk" FOREIGN KEY ("reverses_id") REFERENCES "public"."bond_ledger_entries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sureties" ADD CONSTRAINT "sureties_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "bond_collateral_permit_idx" ON "bond_collateral" USING btree ("permit_id","released_on","amount");--> statement-breakpoint
CREATE INDEX "bond_collateral_company_idx" ON "bond_collateral" USING btree ("company_id");--> statement-breakpoint
CREATE INDEX "bond_ledger_entries_permit_idx" ON "bond_ledger_entries" USING btree ("permit_id","seq");--> statement-breakpoint
CREATE UNIQUE INDEX "bond_ledger_entries_original_uq" ON "bond_ledger_entries" USING btree ("permit_id") WHERE kind = 'original';--> statement-breakpoint
CREATE UNIQUE INDEX "sureties_company_name_uq" ON "sureties" USING btree ("company_id",lower("name"));--> statement-breakpoint
ALTER TABLE "permits" ADD CONSTRAINT "permits_surety_id_sureties_id_fk" FOREIGN KEY ("surety_id") REFERENCES "public"."sureties"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "permits" ADD CONSTRAINT "permits_maintenance_of_id_permits_id_fk" FOREIGN KEY ("maintenance_of_id") REFERENCES "public"."permits"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "permits_company_bond_idx" ON "permits" USING btree ("company_id","bond_status","surety_id","current_amount") WHERE record_type = 'bond';--> statement-breakpoint
CREATE INDEX "permits_surety_idx" ON "permits" USING btree ("surety_id");--> statement-breakpoint
CREATE UNIQUE INDEX "permits_maintenance_of_uq" ON "permits" USING btree ("maintenance_of_id");--> statement-breakpoint
ALTER TABLE "companies" ADD CONSTRAINT "companies_currency_check" CHECK ("companies"."currency" ~ '^[A-Z]{3}$');--> statement-breakpoint
ALTER TABLE "permits" ADD CONSTRAINT "permits_bond_status_check" CHECK ("permits"."bond_status" is null or ("permits"."record_type" = 'bond' and "permits"."bond_status" in ('active','reduced','released','cancelled','claimed')));--> statement-breakpoint
ALTER TABLE "permits" ADD CONSTRAINT "permits_current_amount_check" CHECK ("permits"."current_amount" is null or "permits"."current_amount" >= 0);--> statement-breakpoint
-- Ledger entries are append-only, like the audit: no direct UPDATE or DELETE. Inside a foreign
-- key's action (pg_trigger_depth() above 1) a cascade may delete them (the bond or its company
-- went), and the one update allowed is the document's deletion setting document_id to null.
CREATE OR REPLACE FUNCTION bond_ledger_append_only() RETURNS trigger AS $$
BEGIN
  IF pg_trigger_depth() >= 2 THEN
    IF TG_OP = 'DELETE' THEN
      RETURN OLD;
    END IF;
    IF NEW.document_id IS NULL AND (to_jsonb(NEW) - 'document_id') = (to_jsonb(OLD) - 'document_id') THEN
      RETURN NEW;
    END IF;
  END IF;
  RAISE EXCEPTION 'bond ledger entries are append-only (%.%)', TG_TABLE_NAME, TG_OP USING ERRCODE = 'insufficient_privilege';
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER bond_ledger_entries_append_only BEFORE UPDATE OR DELETE ON bond_ledger_entries
  FOR EACH ROW EXECUTE FUNCTION bond_ledger_append_only();
--> statement-breakpoint
-- Existing bonds. Sureties from the distinct trimmed surety names of each company's bonds, matched
-- without regard to case; of several spellings the most used one names the surety (then the
-- first in order).
INSERT INTO "sureties" ("company_id", "name")
SELECT DISTINCT ON (s.company_id, lower(s.name)) s.company_id, s.name
FROM (
  SELECT "company_id", btrim("surety_company") AS name, count(*) AS uses
  FROM "permits"
  WHERE "record_type" = 'bond' AND btrim(coalesce("surety_company", '')) <> ''
  GROUP BY 1, 2
) s
ORDER BY s.company_id, lower(s.name), s.uses DESC, s.name;
--> statement-breakpoint
UPDATE "permits" p SET "surety_id" = s."id"
FROM "sureties" s
WHERE p."record_type" = 'bond' AND s."company_id" = p."company_id"
  AND lower(s."name") = lower(btrim(p."surety_company"));
--> statement-breakpoint
-- Every bond is Active with its amount as the current amount; a bond with an amount gets that
-- amount as its ledger's original entry, effective on its issue date (else the day it was
-- created, in its company's time zone).
UPDATE "permits" SET "bond_status" = 'active', "current_amount" = "bond_amount" WHERE "record_type" = 'bond';
--> statement-breakpoint
INSERT INTO "bond_ledger_entries"
  ("company_id", "permit_id", "kind", "change", "amount_after", "effective_date", "reason", "created_by", "created_by_name", "created_at")
SELECT p."company_id", p."id", 'original', p."bond_amount", p."bond_amount",
       coalesce(p."issue_date", (p."created_at" AT TIME ZONE c."time_zone")::date),
       'Bond amount before the ledger', NULL, 'Data migration', p."created_at"
FROM "permits" p
JOIN "companies" c ON c."id" = p."company_id"
WHERE p."record_type" = 'bond' AND p."bond_amount" IS NOT NULL
ORDER BY p."created_at", p."id";
