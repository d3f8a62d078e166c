ALTER TABLE "attachments" ADD COLUMN "kind" text DEFAULT 'file' NOT NULL;--> statement-breakpoint
ALTER TABLE "attachments" ADD CONSTRAINT "attachments_kind_check" CHECK ("attachments"."kind" in ('file','ledger_document'));--> statement-breakpoint
-- Documents of ledger entries written before this migration were uploaded as the bond's own files.
UPDATE "attachments" SET "kind" = 'ledger_document' WHERE "id" IN (SELECT "document_id" FROM "bond_ledger_entries" WHERE "document_id" IS NOT NULL);
