CREATE TABLE "document_readings" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"sha256" text NOT NULL,
	"source_key" text,
	"filename" text NOT NULL,
	"content_type" text NOT NULL,
	"staged" boolean DEFAULT false NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"claimed_at" timestamp with time zone,
	"page_count" integer,
	"pages_read" integer DEFAULT 0 NOT NULL,
	"notice" text,
	"error" text,
	"pages" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"content" text DEFAULT '' NOT NULL,
	"suggestions" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"read_ms" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "document_readings_status_check" CHECK ("document_readings"."status" in ('pending','reading','done','failed')),
	CONSTRAINT "document_readings_sha256_check" CHECK ("document_readings"."sha256" ~ '^[0-9a-f]{64}$')
);
--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "date_order" text DEFAULT 'MDY' NOT NULL;--> statement-breakpoint
ALTER TABLE "permit_audit" ADD COLUMN "source" text;--> statement-breakpoint
ALTER TABLE "document_readings" ADD CONSTRAINT "document_readings_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "document_readings_company_sha_uq" ON "document_readings" USING btree ("company_id","sha256");--> statement-breakpoint
CREATE INDEX "document_readings_due_idx" ON "document_readings" USING btree ("status","next_attempt_at");--> statement-breakpoint
CREATE INDEX "document_readings_search_idx" ON "document_readings" USING gin (to_tsvector('english', "content"));--> statement-breakpoint
ALTER TABLE "companies" ADD CONSTRAINT "companies_date_order_check" CHECK ("companies"."date_order" in ('MDY','DMY'));