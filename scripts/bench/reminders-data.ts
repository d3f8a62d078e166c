/**
 * The reminder benchmarks' data set (reminders-sweep.ts, server-memory.ts): PERMITS permits in
 * COMPANIES companies over 8 time zones, expiry dates spread over 1,300 days around TODAY, and
 * (issue 29) CONDITIONS conditions of approval (half as many as permits unless told) each with its
 * open task, written by the database itself (generate_series), so generating costs no Node memory.
 */
export const ZONES = [
  "UTC",
  "America/New_York",
  "America/Denver",
  "America/Los_Angeles",
  "Europe/Berlin",
  "Europe/London",
  "Asia/Kolkata",
  "Australia/Perth",
];

/** The data set, written by the database itself (generate_series), so generating costs no Node memory. */
export async function generateReminderData(
  exec: (sql: string) => Promise<void>,
  {
    companies: COMPANIES,
    permits: PERMITS,
    today: TODAY,
    conditions: CONDITIONS = Math.floor(PERMITS / 2),
  }: { companies: number; permits: number; today: string; conditions?: number },
) {
  // Every STEP-th permit (by number) gets a condition: CONDITIONS of them.
  const STEP = CONDITIONS > 0 ? Math.max(1, Math.floor(PERMITS / CONDITIONS)) : 0;
  const zones = `array[${ZONES.map((z) => `'${z}'`).join(",")}]`;
  await exec(`
    insert into companies (id, name, slug, time_zone)
    select ('00000000-0000-4000-8000-' || lpad(to_hex(c), 12, '0'))::uuid, 'Company ' || c, 'company-' || c,
           (${zones})[1 + c % ${ZONES.length}]
    from generate_series(1, ${COMPANIES}) c;

    -- one company in ten has the 30-day reminder off, one in twenty the 7-day one
    insert into company_preferences (company_id, email_30_day, email_7_day, email_1_day)
    select id, (row_number() over ()) % 10 <> 0, (row_number() over ()) % 20 <> 0, true from companies;

    insert into users (name, email, role, company_id, first_name, last_name)
    select 'User ' || c.slug || '-' || r, r || '@' || c.slug || '.example',
           (array['company-admin', 'company-user', 'client-user'])[r], c.id, 'User', c.slug || '-' || r
    from companies c cross join generate_series(1, 3) r;

    insert into user_notifications (user_id, company_id)
    select id, company_id from users where role in ('company-admin', 'company-user');

    -- expiration dates spread evenly over 1,300 days around today (31 of them are the reminder
    -- window, about 2.4%), one in ten without a date, 3% archived, 3% N/A; and the permit lifecycle
    -- (issue 11): one in five with the company's staff member responsible, one in four with a 30-day
    -- renewal lead time, one in fifty acknowledged, one in twenty closed. Seeded, so every run
    -- generates the same data. The indexes of permits and their terms (but the constraints') are
    -- built after the rows, at once, instead of row by row: the same data, several times faster.
    create temporary table bench_indexes as
      select indexname, indexdef from pg_indexes i
      where schemaname = 'public' and tablename in ('permits', 'permit_terms', 'permit_conditions', 'condition_tasks')
        and not exists (select 1 from pg_constraint c where c.conname = i.indexname);
    do $$ declare r record; begin
      for r in select indexname from bench_indexes loop execute format('drop index %I', r.indexname); end loop;
    end $$;
    create temporary table responsible as select company_id, id from users where role = 'company-user';
    select setseed(0.42);
    insert into permits (company_id, permit_number, permit_name, agency, status, archived, record_type, expiration_date,
                         responsible_user_id, renewal_lead_days, acknowledged_at, acknowledged_by_name, close_date)
    select g.company_id, 'PN-' || g.i, 'Permit ' || g.i, 'Agency ' || (g.i % 37),
           case when g.i % 33 = 0 then 'N/A' else 'Required' end,
           g.i % 31 = 0,
           case when g.i % 7 = 0 then 'bond' else 'permit' end,
           g.expiration_date,
           case when g.i % 5 = 0 then r.id end,
           case when g.i % 4 = 0 then 30 end,
           case when g.i % 50 = 0 then now() end,
           case when g.i % 50 = 0 then 'Bench User' end,
           case when g.i % 20 = 0 then date '${TODAY}' - 10 end
    -- offset 0: random() runs once per number, in order, before the join
    from (select i, ('00000000-0000-4000-8000-' || lpad(to_hex(1 + i % ${COMPANIES}), 12, '0'))::uuid as company_id,
                 case when i % 10 = 0 then null else date '${TODAY}' - 300 + floor(random() * 1300)::int end
                   as expiration_date
          from generate_series(1, ${PERMITS}) i offset 0) g
    join responsible r on r.company_id = g.company_id;
${STEP ? conditionsSql(STEP, CONDITIONS, TODAY) : ""}    do $$ declare r record; begin
      for r in select indexdef from bench_indexes loop execute r.indexdef; end loop;
    end $$;
    drop table bench_indexes;
    drop table responsible;

    analyze;
  `);
}

/**
 * Issue 29: a condition on every STEP-th permit (CONDITIONS in all), each with its one open task,
 * a realistic mix: 7 in 10 'Every 7 days', 2 in 10 'Once', 1 in 10 'After an event' (timed, 14:00
 * local); 2% of the tasks overdue (1 to 30 days, so some past the Escalation Days), 3% due within
 * 7 days, the rest 8 to 187 days ahead. Owners: the company's staff user, one in four its admin.
 * Tasks of closed, archived and N/A permits stay open too (the sweep must leave them out).
 */
function conditionsSql(step: number, conditions: number, today: string): string {
  return `
    create temporary table admins as select company_id, id from users where role = 'company-admin';
    select setseed(0.29);
    insert into permit_conditions (company_id, permit_id, title, owner_user_id, schedule, due_date,
                                   every_interval, every_unit, starts_on, offset_amount, offset_unit, event_kind)
    select p.company_id, p.id, 'Condition ' || p.permit_number,
           case when n % 4 = 0 then a.id else r.id end,
           case when n % 10 < 7 then 'every' when n % 10 < 9 then 'once' else 'after_event' end,
           case when n % 10 between 7 and 8 then date '${today}' + 30 end,
           case when n % 10 < 7 then 7 end, case when n % 10 < 7 then 'days' end,
           case when n % 10 < 7 then date '${today}' - 60 end,
           case when n % 10 = 9 then 24 end, case when n % 10 = 9 then 'hours' end,
           case when n % 10 = 9 then 'Rain ≥ 0.25 in' end
    from (select p.*, substr(p.permit_number, 4)::int as n from permits p) p
    join responsible r on r.company_id = p.company_id
    join admins a on a.company_id = p.company_id
    where p.n % ${step} = 0 and p.n <= ${step} * ${conditions};
    insert into condition_tasks (company_id, permit_id, condition_id, occurrence, due_at, due_on, timed)
    select x.company_id, x.permit_id, x.id, case when x.schedule <> 'after_event' then 0 end,
           case when x.timed then (x.due_on + time '14:00') at time zone co.time_zone
                else (x.due_on + 1)::timestamp at time zone co.time_zone end,
           x.due_on, x.timed
    from (select c.*, c.schedule = 'after_event' as timed,
                 date '${today}' + case when u < 0.02 then -1 - floor(u * 1500)::int
                                        when u < 0.05 then floor((u - 0.02) * 266)::int
                                        else 8 + floor((u - 0.05) * 189)::int end as due_on
          from (select c.*, random() as u from permit_conditions c offset 0) c) x
    join companies co on co.id = x.company_id;
    drop table admins;
`;
}
