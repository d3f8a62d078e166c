ALTER TABLE "permit_audit" ADD COLUMN "internal" boolean;--> statement-breakpoint
ALTER TABLE "permit_inspections" ADD COLUMN "notes_internal" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "permit_terms" ADD COLUMN "renewal_fee_internal" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "permit_terms" ADD COLUMN "note_internal" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "permit_terms" ADD COLUMN "reason_internal" boolean DEFAULT true NOT NULL;--> statement-breakpoint
-- Issue 25: fees, notes and reasons written before the 'Internal' switch existed become internal
-- (the defaults above): nobody chose to show them to clients. An extension an inspection made has
-- a reason that names only the inspection, which every reader of the permit sees: it stays shown.
-- Audit entries written before it keep a null flag and are classified by their kind when read.
UPDATE "permit_terms" SET "reason_internal" = false WHERE "inspection_id" IS NOT NULL;
