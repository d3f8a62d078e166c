-- Overdue notices become one digest row per admin per day (the permits are listed when it is sent);
-- per-permit overdue rows of migration 0007 have no place in that key.
DELETE FROM "reminder_deliveries" WHERE "kind" = 'overdue';--> statement-breakpoint
DROP INDEX "reminder_deliveries_overdue_uq";--> statement-breakpoint
ALTER TABLE "reminder_deliveries" ALTER COLUMN "permit_id" DROP NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "reminder_deliveries_overdue_uq" ON "reminder_deliveries" USING btree ("recipient_user_id","due_date") WHERE kind = 'overdue';--> statement-breakpoint
ALTER TABLE "reminder_deliveries" ADD CONSTRAINT "reminder_deliveries_permit_check" CHECK (("reminder_deliveries"."kind" = 'overdue') = ("reminder_deliveries"."permit_id" is null));