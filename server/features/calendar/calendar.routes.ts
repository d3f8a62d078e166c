import { userIdOf } from "../../access/actor.ts";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { CalendarFeedSchema } from "../../../shared/schemas/calendar.ts";
import { ErrorResponseSchema, errorResponses } from "../../../shared/schemas/common.ts";
import { actorOf } from "../../auth/plugin.ts";
import { authorize, notFound } from "../../errors.ts";
import { canManageCalendarFeed, canReadCalendarFeed } from "../../access/policies/calendar-feed.ts";
import { recordEvent } from "../../audit/audit-writer.ts";
import {
  feedUrl,
  findFeedOwner,
  hasFeedToken,
  renderFeed,
  revokeFeedToken,
  rotateFeedToken,
} from "./calendar.service.ts";

const errors = errorResponses(401, 403, 404);

const FEED_WHILE_IMPERSONATING = "The calendar feed cannot be changed while viewing as another user.";

/** The private iCalendar feed: each user's token (create/rotate, revoke) and the public feed itself. */
export async function calendarRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { db, config } = app.ctx;

  r.get(
    "/api/me/calendar-token",
    {
      // Open at the two-factor set-up gate, with the revoke: the owner may see and end the feed.
      config: { allowDuringTwoFactorSetup: true },
      schema: {
        tags: ["calendar"],
        summary: "Whether the user has a calendar feed (its URL is shown only when created)",
        response: { 200: CalendarFeedSchema, ...errors },
      },
    },
    async (request) => ({ active: await hasFeedToken(db, userIdOf(actorOf(request))), url: null }),
  );

  r.post(
    "/api/me/calendar-token",
    {
      schema: {
        tags: ["calendar"],
        summary: "Create the user's calendar feed, or rotate it (the previous URL stops working)",
        response: { 200: CalendarFeedSchema, ...errors },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      authorize(canManageCalendarFeed(actor), FEED_WHILE_IMPERSONATING);
      const token = await db.transaction(async (tx) => {
        const secret = await rotateFeedToken(tx, userIdOf(actor));
        await recordEvent(tx, actor, {
          action: "calendar_feed.create",
          entityType: "user",
          entityId: userIdOf(actor),
        });
        return secret;
      });
      return { active: true, url: feedUrl(config.publicUrl, token) };
    },
  );

  r.delete(
    "/api/me/calendar-token",
    {
      // The feed stops while its owner is held at the two-factor set-up gate; ending it stays open.
      config: { allowDuringTwoFactorSetup: true },
      schema: {
        tags: ["calendar"],
        summary: "Revoke the user's calendar feed",
        response: { 200: CalendarFeedSchema, ...errors },
      },
    },
    async (request) => {
      const actor = actorOf(request);
      authorize(canManageCalendarFeed(actor), FEED_WHILE_IMPERSONATING);
      await db.transaction(async (tx) => {
        await revokeFeedToken(tx, userIdOf(actor));
        await recordEvent(tx, actor, {
          action: "calendar_feed.revoke",
          entityType: "user",
          entityId: userIdOf(actor),
        });
      });
      return { active: false, url: null };
    },
  );

  r.get(
    "/api/calendar/:file",
    {
      // Calendar apps cannot sign in: the secret in the URL is the credential, masked in the log.
      config: { isPublic: true, linkToken: "file" },
      schema: {
        tags: ["calendar"],
        summary: "The iCalendar feed of a token (<token>.ics)",
        params: z.object({ file: z.string().max(100) }),
        response: { 200: z.string(), 404: ErrorResponseSchema },
      },
    },
    async (request, reply) => {
      const token = request.params.file.endsWith(".ics") ? request.params.file.slice(0, -4) : "";
      const owner = await findFeedOwner(db, token);
      // A feed its owner may not read now answers as an unknown token does: nothing to tell apart.
      if (!owner || !canReadCalendarFeed(owner)) throw notFound("Calendar feed");
      const body = await renderFeed(db, owner, config.publicUrl);
      return reply
        .type("text/calendar; charset=utf-8")
        .header("cache-control", "private, max-age=300")
        .header("content-disposition", 'inline; filename="permitrack.ics"')
        .header("x-robots-tag", "noindex")
        .send(body);
    },
  );
}
