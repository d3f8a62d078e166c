import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  canEditUser,
  canManageUser,
  canManageUsers,
  deleteUserRefusal,
  resetTwoFactorRefusal,
  setDisabledRefusal,
} from "../../access/policies/user.ts";
import type { Actor } from "../../access/actor.ts";
import { lockedWrite } from "../../http/locked-write.ts";
import { actorOf } from "../../auth/plugin.ts";
import { authorize } from "../../errors.ts";
import { IdParamsSchema, errorResponses } from "../../../shared/schemas/common.ts";
import {
  CreateUserSchema,
  UpdateUserSchema,
  UserClientsSchema,
  UserListQuerySchema,
  UserListSchema,
  UserSchema,
} from "../../../shared/schemas/users.ts";
import {
  createUser,
  deleteUser,
  findManagedUser,
  listUsers,
  passwordHashOf,
  presentUser,
  resetTwoFactor,
  setDisabled,
  setUserClients,
  updateUser,
} from "./users.service.ts";

const errors = errorResponses(400, 401, 403, 404, 409);

/**
 * The admin's actor; only super-admins and company-admins reach any user record (spec section 6),
 * so this comes before the scoped load, which has no client filter to apply to users.
 */
function adminOf(request: FastifyRequest) {
  const actor = actorOf(request);
  authorize(canManageUsers(actor));
  return actor;
}

/**
 * User administration (spec sections 2, 5 and 6): a super-admin manages every user, other
 * super-admins included; a company-admin manages its own company's users and never sees a
 * super-admin. Nobody disables or deletes themselves, and the last active super-admin stays.
 */
export async function usersRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { db } = app.ctx;
  /** The user, locked in the write's transaction; 404 outside the actor's users. */
  const locked = (actor: Actor, id: string) => (tx: typeof db) => findManagedUser(tx, actor, id, { forUpdate: true });

  r.get(
    "/api/users",
    {
      schema: {
        tags: ["users"],
        summary: "Users the caller manages",
        querystring: UserListQuerySchema,
        response: { 200: UserListSchema, ...errors },
      },
    },
    async (request) => {
      const actor = adminOf(request);
      const rows = await listUsers(db, actor, request.query.companyId);
      return { users: rows.map((u) => presentUser(actor, u)), can: { create: canManageUsers(actor) } };
    },
  );

  r.post(
    "/api/users",
    {
      schema: {
        tags: ["users"],
        summary: "Create a user with a password (must reset at first sign-in unless told otherwise)",
        body: CreateUserSchema,
        response: { 201: UserSchema, ...errors },
      },
    },
    async (request, reply) => {
      const actor = adminOf(request);
      const id = await createUser(db, actor, request.body);
      return reply.status(201).send(presentUser(actor, await findManagedUser(db, actor, id)));
    },
  );

  r.get(
    "/api/users/:id",
    {
      schema: {
        tags: ["users"],
        summary: "One user",
        params: IdParamsSchema,
        response: { 200: UserSchema, ...errors },
      },
    },
    async (request) => {
      const actor = adminOf(request);
      const target = await findManagedUser(db, actor, request.params.id);
      authorize(canManageUser(actor, target));
      return presentUser(actor, target);
    },
  );

  r.put(
    "/api/users/:id",
    {
      schema: {
        tags: ["users"],
        summary: "Update a user (the e-mail is not editable; a new password ends the user's sessions)",
        params: IdParamsSchema,
        body: UpdateUserSchema,
        response: { 200: UserSchema, ...errors },
      },
    },
    async (request) => {
      const actor = adminOf(request);
      const passwordHash = await passwordHashOf(request.body);
      const saved = await lockedWrite(db, {
        load: locked(actor, request.params.id),
        allow: (target) => canEditUser(actor, target),
        write: (tx, target) => updateUser(tx, actor, target, request.body, passwordHash),
      });
      return presentUser(actor, saved);
    },
  );

  r.delete(
    "/api/users/:id",
    {
      schema: {
        tags: ["users"],
        summary: "Delete a user (not yourself, not a disabled user)",
        params: IdParamsSchema,
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      const actor = adminOf(request);
      await lockedWrite(db, {
        load: locked(actor, request.params.id),
        // Oneself: 403; a disabled user: 409 (enable first); each with its own message.
        allow: (target) => deleteUserRefusal(actor, target),
        write: (tx, target) => deleteUser(tx, actor, target),
      });
      return reply.status(204).send(null);
    },
  );

  r.put(
    "/api/users/:id/clients",
    {
      schema: {
        tags: ["users"],
        summary: "Set the clients a client-user may see (clients of the user's own company)",
        params: IdParamsSchema,
        body: UserClientsSchema,
        response: { 200: UserSchema, ...errors },
      },
    },
    async (request) => {
      const actor = adminOf(request);
      const saved = await lockedWrite(db, {
        load: locked(actor, request.params.id),
        allow: (target) => canEditUser(actor, target),
        write: (tx, target) => setUserClients(tx, actor, target, request.body.clientIds),
      });
      return presentUser(actor, saved);
    },
  );

  for (const [action, disabled] of [
    ["disable", true],
    ["enable", false],
  ] as const) {
    r.post(
      `/api/users/:id/${action}`,
      {
        schema: {
          tags: ["users"],
          summary: disabled
            ? "Disable a user: their sessions end at once and they cannot sign in"
            : "Enable a disabled user",
          params: IdParamsSchema,
          response: { 200: UserSchema, ...errors },
        },
      },
      async (request) => {
        const actor = adminOf(request);
        const saved = await lockedWrite(db, {
          load: locked(actor, request.params.id),
          // The same refusals that make the user's disable/enable flags.
          allow: (target) => setDisabledRefusal(actor, target, disabled),
          write: (tx, target) => setDisabled(tx, actor, target, disabled),
        });
        return presentUser(actor, saved);
      },
    );
  }

  r.post(
    "/api/users/:id/two-factor/reset",
    {
      schema: {
        tags: ["users"],
        summary:
          "Reset a user's two-factor sign-in (lost phone): secret and recovery codes removed, sessions ended",
        params: IdParamsSchema,
        response: { 200: UserSchema, ...errors },
      },
    },
    async (request) => {
      const actor = adminOf(request);
      const saved = await lockedWrite(db, {
        load: locked(actor, request.params.id),
        allow: (target) => resetTwoFactorRefusal(actor, target),
        write: (tx, target) => resetTwoFactor(tx, actor, target),
      });
      return presentUser(actor, saved);
    },
  );
}
