ALTER TABLE "two_factors" ADD COLUMN "last_totp_step" bigint;--> statement-breakpoint
ALTER TABLE "two_factors" ADD COLUMN "code_failures" integer DEFAULT 0 NOT NULL;