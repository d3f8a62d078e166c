-- Template names were unique only by a check before insert; parallel creates could leave duplicates.
-- Rename any such duplicates ("Name (2)", "Name (3)" ...) before the index makes the rule hold.
UPDATE "permit_templates" t SET "name" = t."name" || ' (' || d.n || ')'
FROM (
  SELECT "id", row_number() OVER (PARTITION BY "company_id", lower("name") ORDER BY "created_at", "id") AS n
  FROM "permit_templates"
) d
WHERE d."id" = t."id" AND d.n > 1;--> statement-breakpoint
CREATE UNIQUE INDEX "permit_templates_company_name_uq" ON "permit_templates" USING btree ("company_id",lower("name"));
