CREATE TABLE "condition_tasks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"permit_id" uuid NOT NULL,
	"condition_id" uuid NOT NULL,
	"occurrence" integer,
	"event_id" uuid,
	"due_at" timestamp with time zone NOT NULL,
	"due_on" date NOT NULL,
	"timed" boolean DEFAULT false NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"completed_by" uuid,
	"completed_by_name" text,
	"completed_at" timestamp with time zone,
	"note" text,
	"reason" text,
	"evidence_key" text,
	"evidence_name" text,
	"evidence_content_type" text,
	"evidence_size" integer,
	"evidence_sha256" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "condition_tasks_status_check" CHECK ("condition_tasks"."status" in ('open','done','not_applicable')),
	CONSTRAINT "condition_tasks_done_check" CHECK ("condition_tasks"."status" = 'open' or "condition_tasks"."completed_at" is not null),
	CONSTRAINT "condition_tasks_sha256_check" CHECK ("condition_tasks"."evidence_sha256" ~ '^[0-9a-f]{64}$')
);
--> statement-breakpoint
CREATE TABLE "permit_conditions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"permit_id" uuid NOT NULL,
	"title" text NOT NULL,
	"description" text,
	"owner_user_id" uuid,
	"evidence" text DEFAULT 'none' NOT NULL,
	"schedule" text NOT NULL,
	"due_date" date,
	"every_interval" integer,
	"every_unit" text,
	"starts_on" date,
	"ends_on" date,
	"offset_amount" integer,
	"offset_unit" text,
	"milestone_name" text,
	"milestone_at" timestamp with time zone,
	"event_kind" text,
	"created_by" uuid,
	"removed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "permit_conditions_evidence_check" CHECK ("permit_conditions"."evidence" in ('none','file','photo')),
	CONSTRAINT "permit_conditions_schedule_check" CHECK ("permit_conditions"."schedule" in ('once','every','before_event','after_event')),
	CONSTRAINT "permit_conditions_once_check" CHECK ("permit_conditions"."schedule" <> 'once' or "permit_conditions"."due_date" is not null),
	CONSTRAINT "permit_conditions_every_check" CHECK ("permit_conditions"."schedule" <> 'every' or ("permit_conditions"."every_interval" between 1 and 365 and "permit_conditions"."every_unit" in ('days','weeks','months') and "permit_conditions"."starts_on" is not null and ("permit_conditions"."ends_on" is null or "permit_conditions"."ends_on" >= "permit_conditions"."starts_on"))),
	CONSTRAINT "permit_conditions_event_check" CHECK ("permit_conditions"."schedule" not in ('before_event','after_event') or ("permit_conditions"."offset_amount" between 0 and 8760 and "permit_conditions"."offset_unit" in ('hours','days'))),
	CONSTRAINT "permit_conditions_after_event_check" CHECK ("permit_conditions"."schedule" <> 'after_event' or "permit_conditions"."event_kind" is not null)
);
--> statement-breakpoint
CREATE TABLE "project_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"project_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"occurred_at" timestamp with time zone NOT NULL,
	"note" text,
	"created_by" uuid,
	"created_by_name" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "template_conditions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"template_id" uuid NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"title" text NOT NULL,
	"description" text,
	"evidence" text DEFAULT 'none' NOT NULL,
	"schedule" text NOT NULL,
	"due_days" integer,
	"every_interval" integer,
	"every_unit" text,
	"offset_amount" integer,
	"offset_unit" text,
	"milestone_name" text,
	"event_kind" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "template_conditions_evidence_check" CHECK ("template_conditions"."evidence" in ('none','file','photo')),
	CONSTRAINT "template_conditions_schedule_check" CHECK ("template_conditions"."schedule" in ('once','every','before_event','after_event'))
);
--> statement-breakpoint
ALTER TABLE "reminder_deliveries" DROP CONSTRAINT "reminder_deliveries_kind_check";--> statement-breakpoint
ALTER TABLE "reminder_deliveries" ADD COLUMN "task_id" uuid;--> statement-breakpoint
ALTER TABLE "condition_tasks" ADD CONSTRAINT "condition_tasks_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "condition_tasks" ADD CONSTRAINT "condition_tasks_permit_id_permits_id_fk" FOREIGN KEY ("permit_id") REFERENCES "public"."permits"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "condition_tasks" ADD CONSTRAINT "condition_tasks_condition_id_permit_conditions_id_fk" FOREIGN KEY ("condition_id") REFERENCES "public"."permit_conditions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "condition_tasks" ADD CONSTRAINT "condition_tasks_event_id_project_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."project_events"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "condition_tasks" ADD CONSTRAINT "condition_tasks_completed_by_users_id_fk" FOREIGN KEY ("completed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "permit_conditions" ADD CONSTRAINT "permit_conditions_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "permit_conditions" ADD CONSTRAINT "permit_conditions_permit_id_permits_id_fk" FOREIGN KEY ("permit_id") REFERENCES "public"."permits"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "permit_conditions" ADD CONSTRAINT "permit_conditions_owner_user_id_users_id_fk" FOREIGN KEY ("owner_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "permit_conditions" ADD CONSTRAINT "permit_conditions_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_events" ADD CONSTRAINT "project_events_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_events" ADD CONSTRAINT "project_events_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_events" ADD CONSTRAINT "project_events_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "template_conditions" ADD CONSTRAINT "template_conditions_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "template_conditions" ADD CONSTRAINT "template_conditions_template_id_permit_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."permit_templates"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "condition_tasks_occurrence_uq" ON "condition_tasks" USING btree ("condition_id","occurrence") WHERE occurrence is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "condition_tasks_event_uq" ON "condition_tasks" USING btree ("condition_id","event_id") WHERE event_id is not null;--> statement-breakpoint
CREATE INDEX "condition_tasks_condition_idx" ON "condition_tasks" USING btree ("condition_id","due_at");--> statement-breakpoint
CREATE INDEX "condition_tasks_permit_idx" ON "condition_tasks" USING btree ("permit_id","status","due_on");--> statement-breakpoint
CREATE INDEX "condition_tasks_open_due_idx" ON "condition_tasks" USING btree ("company_id","due_on") WHERE status = 'open';--> statement-breakpoint
CREATE INDEX "permit_conditions_permit_idx" ON "permit_conditions" USING btree ("permit_id","created_at");--> statement-breakpoint
CREATE INDEX "permit_conditions_event_idx" ON "permit_conditions" USING btree ("company_id",lower("event_kind")) WHERE schedule = 'after_event' and removed_at is null;--> statement-breakpoint
CREATE INDEX "project_events_project_idx" ON "project_events" USING btree ("project_id","occurred_at");--> statement-breakpoint
CREATE INDEX "template_conditions_template_idx" ON "template_conditions" USING btree ("template_id","position");--> statement-breakpoint
ALTER TABLE "reminder_deliveries" ADD CONSTRAINT "reminder_deliveries_task_id_condition_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."condition_tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "reminder_deliveries_task_uq" ON "reminder_deliveries" USING btree ("task_id","kind","recipient_user_id") WHERE task_id is not null;--> statement-breakpoint
ALTER TABLE "reminder_deliveries" ADD CONSTRAINT "reminder_deliveries_task_check" CHECK (("reminder_deliveries"."kind" in ('task_due','task_overdue','task_escalation')) = ("reminder_deliveries"."task_id" is not null));--> statement-breakpoint
ALTER TABLE "reminder_deliveries" ADD CONSTRAINT "reminder_deliveries_kind_check" CHECK ("reminder_deliveries"."kind" in ('reminder','escalation','overdue','overdue_request','task_due','task_overdue','task_escalation'));