import { randomUUID } from "node:crypto";
import type { InvitationData, Role, UserData } from "~/domain/types";
import { COLLECTIONS, ConflictError, NotFoundError, type Actor, type DocumentStore, type InvitationsRepo, type Where } from "~/storage/port";
import { appendAuditInTransaction, auditBy } from "~/storage/repos/audit.server";

export function createInvitationsRepo(store: DocumentStore): InvitationsRepo {
  const C = COLLECTIONS.invitation;

  /** `patch` may depend on the invitation as read in the transaction (a counter, say). */
  async function change(
    id: string,
    makePatch: Partial<InvitationData> | ((current: InvitationData) => Partial<InvitationData>),
    actor: Actor,
    action: string,
    now: Date,
  ) {
    return store.transaction(async (tx) => {
      const current = await tx.get<InvitationData>(C, id);
      if (!current) throw new NotFoundError(C, id);
      // Only a pending invitation can be resent or revoked: an accepted one is history.
      if (current.status !== "pending") throw new ConflictError(C, id);
      const patch = typeof makePatch === "function" ? makePatch(current) : makePatch;
      tx.update<InvitationData>(C, id, { ...patch, updated: now.toISOString() });
      appendAuditInTransaction(
        tx,
        {
          ...auditBy(actor),
          action,
          entity: "invitation",
          entityId: id,
          teamId: current.teamId,
          changes: patch.status && patch.status !== current.status ? [{ field: "status", before: current.status, after: patch.status }] : [],
        },
        now,
      );
      return { ...current, ...patch, updated: now.toISOString(), version: current.version + 1 };
    });
  }

  async function getByTokenHash(tokenHash: string) {
    const { items } = await store.query<InvitationData>(C, { where: [["tokenHash", "==", tokenHash]], limit: 1 });
    return items[0] ?? null;
  }

  return {
    async getOne(id) {
      return store.get<InvitationData>(C, id);
    },
    getByTokenHash,
    async listForTeam(teamId, status) {
      const where: Where[] = [["teamId", "==", teamId]];
      if (status) where.push(["status", "==", status]);
      const { items } = await store.query<InvitationData>(C, { where, orderBy: { field: "created", direction: "desc" }, limit: 200 });
      return items;
    },
    async create({ teamId, email, role, tokenHash, expiresAt }, actor, now) {
      const emailLower = email.trim().toLowerCase();
      const earlier = await store.query<InvitationData>(C, {
        where: [["teamId", "==", teamId], ["emailLower", "==", emailLower], ["status", "==", "pending"]],
        limit: 20,
      });
      const id = randomUUID();
      const doc: InvitationData = {
        teamId,
        email: email.trim(),
        emailLower,
        role,
        status: "pending",
        tokenHash,
        expiresAt: expiresAt.toISOString(),
        invitedBy: actor.by,
        created: now.toISOString(),
        updated: now.toISOString(),
        sentCount: 1,
        acceptedAt: null,
        acceptedBy: null,
      };
      await store.transaction(async (tx) => {
        // Every read before any write; only those still pending are revoked.
        const current: ((InvitationData & { id: string }) | null)[] = [];
        for (const old of earlier.items) current.push(await tx.get<InvitationData>(C, old.id));
        for (const old of current) {
          if (old?.status === "pending") tx.update<InvitationData>(C, old.id, { status: "revoked", updated: now.toISOString() });
        }
        tx.create<InvitationData>(C, id, doc);
        appendAuditInTransaction(
          tx,
          { ...auditBy(actor), action: "create", entity: "invitation", entityId: id, teamId, changes: [{ field: "email", before: null, after: doc.email }, { field: "role", before: null, after: role }] },
          now,
        );
      });
      return { ...doc, id, version: 1 };
    },
    async resend(id, tokenHash, expiresAt, actor, now) {
      // The count is read in the transaction, so that racing resends are all counted.
      return change(
        id,
        (current) => ({ tokenHash, expiresAt: expiresAt.toISOString(), sentCount: current.sentCount + 1 }),
        actor,
        "resend",
        now,
      );
    },
    async revoke(id, actor, now) {
      return change(id, { status: "revoked" }, actor, "revoke", now);
    },
    async accept(tokenHash, userId, now) {
      const found = await getByTokenHash(tokenHash);
      if (!found) return { ok: false, reason: "invitation.invalid" };
      return store.transaction(async (tx) => {
        const invitation = await tx.get<InvitationData>(C, found.id);
        const user = await tx.get<UserData>(COLLECTIONS.user, userId);
        if (!invitation || invitation.tokenHash !== tokenHash || !user) return { ok: false, reason: "invitation.invalid" } as const;
        if (invitation.status === "revoked") return { ok: false, reason: "invitation.revoked" } as const;
        if (invitation.status === "accepted") return { ok: false, reason: "invitation.accepted" } as const;
        if (Date.parse(invitation.expiresAt) <= now.getTime()) return { ok: false, reason: "invitation.expired" } as const;
        if (user.emailLower !== invitation.emailLower) return { ok: false, reason: "invitation.wrongUser" } as const;
        const roleByTeam: Record<string, Role> = { ...user.roleByTeam, [invitation.teamId]: invitation.role };
        tx.update<UserData>(COLLECTIONS.user, userId, { roleByTeam, teamIds: Object.keys(roleByTeam).sort(), updated: now.toISOString() });
        tx.update<InvitationData>(C, invitation.id, { status: "accepted", acceptedAt: now.toISOString(), acceptedBy: userId, updated: now.toISOString() });
        appendAuditInTransaction(
          tx,
          {
            by: user.email,
            action: "accept",
            entity: "invitation",
            entityId: invitation.id,
            teamId: invitation.teamId,
            changes: [
              { field: "status", before: invitation.status, after: "accepted" },
              { field: `roleByTeam.${invitation.teamId}`, before: user.roleByTeam[invitation.teamId] ?? null, after: invitation.role },
            ],
          },
          now,
        );
        return { ok: true, invitation: { ...invitation, status: "accepted", acceptedAt: now.toISOString(), acceptedBy: userId, version: invitation.version + 1 } } as const;
      });
    },
  };
}
