import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import {
  canExportBonds,
  canListBonds,
  canManageCollateral,
  canStartMaintenanceBond,
  canViewBond,
  canWriteLedger,
} from "../../access/policies/bond.ts";
import { canCreateSurety } from "../../access/policies/surety.ts";
import { actorOf } from "../../auth/plugin.ts";
import { authorize } from "../../errors.ts";
import { todayIn } from "../../../shared/domain/dates.ts";
import {
  CollateralInputSchema,
  CollateralParamsSchema,
  CollateralReleaseInputSchema,
} from "../../../shared/schemas/bond-collateral.ts";
import { BondLedgerSchema, LedgerEntryInputSchema } from "../../../shared/schemas/bond-ledger.ts";
import {
  BondExportQuerySchema,
  BondListQuerySchema,
  BondListSchema,
  BondScheduleQuerySchema,
} from "../../../shared/schemas/bonds-page.ts";
import { AttachmentResponseSchema } from "../../../shared/schemas/attachments.ts";
import { ErrorResponseSchema, IdParamsSchema, errorResponses } from "../../../shared/schemas/common.ts";
import { MaintenanceBondInputSchema } from "../../../shared/schemas/maintenance-bond.ts";
import { receiveUpload } from "../attachments/index.ts";
import { FILE_TYPES } from "../exports/index.ts";
import { lockedWrite } from "../../http/locked-write.ts";
import { findVisibleBond, lockBondWithLedger } from "./bond-access.ts";
import { bondSchedule, exportBonds } from "./bonds-export.ts";
import { bondAggregates, bondRows, presentBondRow } from "./bonds.repository.ts";
import { addCollateral, releaseCollateral } from "./collateral.service.ts";
import { addLedgerEntry } from "./ledger-entry.service.ts";
import { loadLedger } from "./ledger-view.ts";
import { startMaintenanceBond } from "./maintenance-bond.service.ts";

const errors = errorResponses(400, 401, 403, 404, 409);
const tags = ["bonds"];

/**
 * Bonds (issue 12): the Bonds page (exposure by surety, client and project; export; Bond Schedule),
 * a bond's ledger (riders, reductions, release, cancellation, claims, reversals), its collateral,
 * and 'Start Maintenance Bond'.
 */
export async function bondsRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { db } = app.ctx;

  r.get(
    "/api/bonds",
    {
      schema: {
        tags,
        summary:
          "The Bonds page: one sorted page of bonds with the tiles and exposure by surety, client and project over the whole filtered set",
        querystring: BondListQuerySchema,
        response: { 200: BondListSchema, ...errors },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      authorize(canListBonds(actor));
      const q = request.query;
      const [aggregates, rows] = await Promise.all([
        bondAggregates(db, actor, q),
        bondRows(db, actor, q, { limit: q.page_size, offset: (q.page - 1) * q.page_size }),
      ]);
      return {
        items: rows.map((row) => presentBondRow(actor, row)),
        total: aggregates.summary.bonds,
        page: q.page,
        page_size: q.page_size,
        ...aggregates,
        can: { export: canExportBonds(actor), manage_sureties: canCreateSurety(actor) },
      };
    },
  );

  r.get(
    "/api/bonds/export",
    {
      schema: {
        tags,
        summary: "The Bonds page's current view (filters and sort, every page) as CSV or Excel",
        querystring: BondExportQuerySchema,
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      authorize(canExportBonds(actor));
      const { format, ...query } = request.query;
      return reply
        .type(FILE_TYPES[format])
        .header("content-disposition", `attachment; filename="bonds-${todayIn("UTC")}.${format}"`)
        .header("cache-control", "no-store")
        .send(exportBonds(db, actor, query, format));
    },
  );

  r.get(
    "/api/bonds/schedule.xlsx",
    {
      schema: {
        tags,
        summary: "'Bond Schedule' (Excel): one row per open bond within the filters, with a total",
        querystring: BondScheduleQuerySchema,
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      authorize(canExportBonds(actor));
      return reply
        .type(FILE_TYPES.xlsx)
        .header("content-disposition", `attachment; filename="bond-schedule-${todayIn("UTC")}.xlsx"`)
        .header("cache-control", "no-store")
        .send(bondSchedule(db, actor, request.query));
    },
  );

  r.get(
    "/api/bonds/:id/ledger",
    {
      schema: {
        tags,
        summary:
          "A bond's status, amounts, Bond Ledger, collateral (staff), linked maintenance/performance bond and what the actor may do",
        params: IdParamsSchema,
        response: { 200: BondLedgerSchema, ...errors },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      const bond = await findVisibleBond(db, actor, request.params.id);
      authorize(canViewBond(actor, bond));
      return loadLedger(db, actor, bond);
    },
  );

  r.post(
    "/api/bonds/:id/ledger",
    {
      schema: {
        tags,
        summary:
          "Add a ledger entry: rider, reduction (amount or percent), release, cancellation, claim, or a reversal of an earlier entry",
        params: IdParamsSchema,
        body: LedgerEntryInputSchema,
        response: { 200: BondLedgerSchema, ...errors },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      // One load per write: the bond locked with its entries, the policy on that row, the entry,
      // then the ledger as it is now: a rider costs 6 statements in all (server/performance).
      const bond = await lockedWrite(db, {
        load: (tx) => lockBondWithLedger(tx, actor, request.params.id),
        allow: ({ bond }) => canWriteLedger(actor, bond),
        write: (tx, locked) => addLedgerEntry(tx, actor, locked, request.body),
      });
      return loadLedger(db, actor, bond);
    },
  );

  r.post(
    "/api/bonds/:id/documents",
    {
      schema: {
        tags,
        summary:
          "Upload a ledger entry's document (multipart, one field named \"file\"): listed on its ledger row, not among the bond's files, archiving none of them",
        consumes: ["multipart/form-data"],
        params: IdParamsSchema,
        response: { 201: AttachmentResponseSchema, ...errors, 413: ErrorResponseSchema },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      const bond = await findVisibleBond(db, actor, request.params.id);
      authorize(canWriteLedger(actor, bond));
      const attachment = await receiveUpload(app, request, actor, bond, "ledger_document");
      return reply.status(201).send({ attachment });
    },
  );

  r.post(
    "/api/bonds/:id/collateral",
    {
      schema: {
        tags,
        summary: "Record collateral held by the surety against the bond (staff)",
        params: IdParamsSchema,
        body: CollateralInputSchema,
        response: { 200: BondLedgerSchema, ...errors },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      const bond = await findVisibleBond(db, actor, request.params.id);
      authorize(canManageCollateral(actor, bond));
      await addCollateral(db, actor, bond.id, request.body);
      return loadLedger(db, actor, await findVisibleBond(db, actor, bond.id));
    },
  );

  r.patch(
    "/api/bonds/:id/collateral/:cid",
    {
      schema: {
        tags,
        summary: "Release collateral: on or after the bond's release (staff)",
        params: CollateralParamsSchema,
        body: CollateralReleaseInputSchema,
        response: { 200: BondLedgerSchema, ...errors },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      const bond = await findVisibleBond(db, actor, request.params.id);
      authorize(canManageCollateral(actor, bond));
      await releaseCollateral(db, actor, bond.id, request.params.cid, request.body);
      return loadLedger(db, actor, await findVisibleBond(db, actor, bond.id));
    },
  );

  r.post(
    "/api/bonds/:id/maintenance-bond",
    {
      schema: {
        tags,
        summary:
          "'Start Maintenance Bond' on a Performance bond: the linked Maintenance bond with its own original amount (one per performance bond)",
        params: IdParamsSchema,
        body: MaintenanceBondInputSchema,
        response: { 201: BondLedgerSchema, ...errors },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      const bond = await findVisibleBond(db, actor, request.params.id);
      authorize(canStartMaintenanceBond(actor, bond));
      const id = await startMaintenanceBond(db, actor, bond.id, request.body);
      return reply.status(201).send(await loadLedger(db, actor, await findVisibleBond(db, actor, id)));
    },
  );
}
