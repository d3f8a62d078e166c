import { Readable } from "node:stream";
import { eq } from "drizzle-orm";
import type { Response as InjectResponse } from "light-my-request";
import { documentRequests, requestFiles, requestSubmissions } from "../db/schema.ts";
import { unsealLinkToken } from "../features/requests/index.ts";
import { newLinkToken } from "../features/requests/link-token.ts";
import type { ApiClient, TestContext } from "./harness.ts";
import { multipart } from "./multipart.ts";

/** What the tests of document requests (issue 27) share: asking, the party's link, its uploads. */
export function requestHelpers(t: TestContext) {
  /** The link's token of a request, as the e-mail carries it (unsealed from the row, as the sender does). */
  async function tokenOf(requestId: string): Promise<string> {
    const [row] = await t.db
      .select({ sealed: documentRequests.tokenSealed })
      .from(documentRequests)
      .where(eq(documentRequests.id, requestId));
    const token = unsealLinkToken(t.app.ctx.links, row?.sealed ?? null);
    if (!token) throw new Error(`no token for request ${requestId}`);
    return token;
  }

  /** POST /api/permits/:id/requests; the answer's request and its token. */
  async function ask(
    client: ApiClient,
    permitId: string,
    body: Record<string, unknown> = {},
  ): Promise<{ id: string; token: string; res: InjectResponse }> {
    const res = await client.post(`/api/permits/${permitId}/requests`, {
      name: "Jane Roe",
      email: `jane.${Math.random().toString(36).slice(2, 8)}@acme-surety.example`,
      organization: "Acme Surety",
      documentKind: "inspection_report",
      message: "Please send the final inspection report.",
      dueDate: "2031-01-15",
      ...body,
    });
    if (res.statusCode !== 201) throw new Error(`ask failed: ${res.statusCode} ${res.body}`);
    const id = (res.json() as { request: { id: string } }).request.id;
    return { id, token: await tokenOf(id), res };
  }

  /** The party, from an address of its own (the link's limits count per address). */
  function party(address = "203.0.113.10") {
    const send = (opts: Parameters<ApiClient["request"]>[0]) =>
      t.anonymous.request({ remoteAddress: address, ...opts });
    return {
      page: (token: string) => send({ method: "GET", url: `/api/request-links/${token}` }),
      logo: (token: string) => send({ method: "GET", url: `/api/request-links/${token}/logo` }),
      upload: (token: string, filename = "report.pdf", content: string | Buffer = "%PDF-1.4 a report") =>
        send({
          method: "POST",
          url: `/api/request-links/${token}/files`,
          ...multipart([{ name: "file", filename, contentType: "application/pdf", content }]),
        }),
      submit: (token: string, values: Record<string, string> = {}) =>
        send({ method: "POST", url: `/api/request-links/${token}/submit`, payload: { values } }),
    };
  }

  /** The party uploads one file and submits; the submission's id as staff see it. */
  async function answer(token: string, values: Record<string, string> = {}, address?: string) {
    const p = party(address);
    const up = await p.upload(token);
    if (up.statusCode !== 201) throw new Error(`upload failed: ${up.statusCode} ${up.body}`);
    const sub = await p.submit(token, values);
    if (sub.statusCode !== 200) throw new Error(`submit failed: ${sub.statusCode} ${sub.body}`);
  }

  /** The pending submission's id of a request, read as staff. */
  async function pendingSubmissionOf(
    client: ApiClient,
    permitId: string,
    requestId: string,
  ): Promise<string> {
    const list = (await client.get(`/api/permits/${permitId}/requests`)).json() as {
      items: { id: string; submissions: { id: string; status: string }[] }[];
    };
    const s = list.items.find((i) => i.id === requestId)?.submissions.find((x) => x.status === "pending");
    if (!s) throw new Error(`no pending submission on ${requestId}`);
    return s.id;
  }

  return { tokenOf, ask, party, answer, pendingSubmissionOf };
}

/**
 * A document request written straight into the database (for the security suites' cells, which
 * need one per cell): open with one file uploaded (`loose`), or `submitted` with a pending
 * submission and its file; the file is really stored.
 */
export async function makeDocumentRequest(
  t: TestContext,
  permit: { id: string; companyId: string },
  opts: { submitted?: boolean; kind?: string; fields?: string[] } = {},
): Promise<{ id: string; token: string; submissionId: string | null; fileId: string }> {
  const { token, hash, sealed } = newLinkToken(t.app.ctx.links);
  const [request] = await t.db
    .insert(documentRequests)
    .values({
      companyId: permit.companyId,
      permitId: permit.id,
      partyName: "Jane Roe",
      partyEmail: "jane.roe@acme-surety.example",
      partyOrganization: "Acme Surety",
      documentKind: opts.kind ?? "inspection_report",
      fields: opts.fields ?? [],
      tokenHash: hash,
      tokenSealed: sealed,
      expiresAt: new Date(Date.now() + 30 * 86_400_000),
      status: opts.submitted ? "submitted" : "open",
      submittedAt: opts.submitted ? new Date() : null,
      createdByName: "Test",
    })
    .returning();
  const submission = opts.submitted
    ? (
        await t.db
          .insert(requestSubmissions)
          .values({ companyId: permit.companyId, requestId: request!.id })
          .returning()
      )[0]!
    : null;
  const content = "%PDF-1.4 a requested report";
  const stored = await t.app.ctx.storage.put(
    `companies/${permit.companyId}/attachments`,
    Readable.from([Buffer.from(content)]),
    1_000_000,
  );
  const [file] = await t.db
    .insert(requestFiles)
    .values({
      companyId: permit.companyId,
      requestId: request!.id,
      submissionId: submission?.id ?? null,
      filename: "requested-report.pdf",
      storageKey: stored.key,
      contentType: "application/pdf",
      size: stored.size,
      sha256: stored.sha256,
    })
    .returning();
  return { id: request!.id, token, submissionId: submission?.id ?? null, fileId: file!.id };
}
