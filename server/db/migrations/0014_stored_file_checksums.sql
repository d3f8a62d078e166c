ALTER TABLE "attachments" ADD COLUMN "sha256" text;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "logo_sha256" text;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "logo_size" integer;--> statement-breakpoint
ALTER TABLE "attachments" ADD CONSTRAINT "attachments_sha256_check" CHECK ("attachments"."sha256" ~ '^[0-9a-f]{64}$');--> statement-breakpoint
ALTER TABLE "companies" ADD CONSTRAINT "companies_logo_sha256_check" CHECK ("companies"."logo_sha256" ~ '^[0-9a-f]{64}$');