DROP INDEX "permit_audit_permit_idx";--> statement-breakpoint
ALTER TABLE "permit_audit" ADD COLUMN "seq" bigint NOT NULL GENERATED ALWAYS AS IDENTITY (sequence name "permit_audit_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1);--> statement-breakpoint
CREATE INDEX "permit_audit_permit_idx" ON "permit_audit" USING btree ("permit_id","seq");