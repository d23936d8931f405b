import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import sharp from "sharp";
import { markAwaitingInput } from "../../src/storage/transactions/transactions";
import { startReviewServer } from "./helpers";

let s: Awaited<ReturnType<typeof startReviewServer>>;
let project: string;
let txId: string;
let reviewerKey: string;

beforeAll(async () => {
  s = await startReviewServer();
  expect((await s.admin("POST", "/admin/tenants", { tenant_id: "acme", name: "Acme" })).status).toBe(201);
  expect((await s.admin("POST", "/admin/tenants", { tenant_id: "globex", name: "Globex" })).status).toBe(201);
  project = (await s.admin("POST", "/tenants/acme/projects", { name: "Invoices", description: "" })).json.project_id;
  reviewerKey = await s.clientWithKey("acme-reviewer", {
    tenant_id: "acme",
    permissions: ["transaction.read", "transaction.review", "transaction.download_results"],
  });
  txId = await s.submit("acme", project, "inbox/phone-photo.jpg");
}, 300_000);
afterAll(() => s?.stop());

const review = (method: string, body?: unknown, id = txId) =>
  s.withKey(reviewerKey)(method, `/transactions/${id}/review`, body);

describe("review API", () => {
  test("GET review: documents with fields and boxes, pages with words and an image URL, the project's classes and fields", async () => {
    const r = await review("GET");
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({
      transaction_id: txId,
      status: "completed",
      version: 1,
      finished: false,
      last_human_review: { reviewed: false },
    });
    const doc = r.json.documents[0];
    const boxed = Object.values(doc.fields).filter((f: any) => f.bounding_boxes.length > 0) as any[];
    expect(boxed.length).toBeGreaterThan(3);
    expect(boxed[0].bounding_boxes[0]).toMatchObject({ page_index: 1, coordinates: expect.any(Array) });
    expect(r.json.pages[0].words.length).toBeGreaterThan(20);
    expect(r.json.pages[0].image_url).toBe(`/transactions/${txId}/review/pages/1/image`);
    expect(r.json.classes.map((c: any) => c.id)).toContain("invoice");
    expect(r.json.fields.invoice.map((f: any) => f.id)).toContain("total_amount");
  });

  test("the page image is the OCR raster: its pixel size is the coordinate space of the boxes", async () => {
    const view = (await review("GET")).json;
    const it = view.pages[0].image_transform;
    for (const url of [`/transactions/${txId}/pages/1/image`, `/transactions/${txId}/review/pages/1/image`]) {
      const res = await fetch(s.base + url, { headers: { "x-api-key": reviewerKey } });
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("image/jpeg");
      const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
      expect([meta.width, meta.height]).toEqual([it.rasterized_width, it.rasterized_height]);
    }
    expect((await s.withKey(reviewerKey)("GET", `/transactions/${txId}/pages/9/image`)).status).toBe(404);
    expect((await s.withKey(reviewerKey)("GET", `/transactions/${txId}/pages/zero/image`)).status).toBe(400);
  });

  test("set a field from a word on the page, then a stale write is refused with 409 and changes nothing", async () => {
    const view = (await review("GET")).json;
    const doc = view.documents[0];
    const word = view.pages[0].words.find((w: any) => /^\d+[.,]\d{2}$/.test(w.text));
    const box = { coordinates: word.bounding_box, page_index: 1 };
    const ok = await review("POST", {
      version: view.version,
      action: "set_field",
      document_id: doc.document_id,
      field_id: "total_amount",
      value: word.text,
      bounding_boxes: [box],
    });
    expect(ok.status).toBe(200);
    expect(ok.json.version).toBe(view.version + 1);
    const field = ok.json.documents[0].fields.total_amount;
    expect(field).toMatchObject({ is_confirmed: true, review_required: false, bounding_boxes: [box] });
    expect(typeof field.value).toBe("number");
    expect(ok.json.last_human_review).toMatchObject({
      reviewed: true,
      action: "set_field",
      reviewer: { id: "acme-reviewer", kind: "client" },
    });

    const stale = await review("POST", {
      version: view.version,
      action: "set_field",
      document_id: doc.document_id,
      field_id: "total_amount",
      value: "1.00",
    });
    expect(stale.status).toBe(409);
    expect(stale.json.detail).toMatch(/changed since version 1 \(now 2\)/);
    const after = (await review("GET")).json;
    expect(after.version).toBe(view.version + 1);
    expect(after.documents[0].fields.total_amount.value).toBe(field.value);
    // the documents endpoint shows the reviewed value too
    const docs = await s.withKey(reviewerKey)("GET", `/transactions/${txId}/documents`);
    expect(docs.json.documents[0].fields.total_amount).toMatchObject({ value: field.value, is_confirmed: true });
  });

  test("If-Match carries the version as well; a write without any version is 400", async () => {
    const view = (await review("GET")).json;
    const doc = view.documents[0];
    const noVersion = await review("POST", {
      action: "confirm_field",
      document_id: doc.document_id,
      field_id: "invoice_number",
    });
    expect(noVersion.status).toBe(400);
    expect(noVersion.json.detail).toMatch(/version/);
    const res = await fetch(`${s.base}/transactions/${txId}/review`, {
      method: "POST",
      headers: { "x-api-key": reviewerKey, "content-type": "application/json", "if-match": `"${view.version}"` },
      body: JSON.stringify({ action: "confirm_field", document_id: doc.document_id, field_id: "invoice_number" }),
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as any).documents[0].fields.invoice_number.is_confirmed).toBe(true);
  });

  test("change the class, confirm the document, and bad actions answer 400/404 with a detail", async () => {
    let view = (await review("GET")).json;
    const id = view.documents[0].document_id;
    let r = await review("POST", { version: view.version, action: "set_class", document_id: id, class_id: "receipt" });
    expect(r.status).toBe(200);
    expect(r.json.documents[0].classification).toMatchObject({ class_id: "receipt", confirmed: true });
    r = await review("POST", { version: r.json.version, action: "set_class", document_id: id, class_id: "invoice" });
    r = await review("POST", { version: r.json.version, action: "confirm_document", document_id: id });
    expect(r.status).toBe(200);
    expect(Object.values(r.json.documents[0].fields).every((f: any) => f.is_confirmed === true)).toBe(true);
    view = r.json;
    expect(
      (await review("POST", { version: view.version, action: "set_class", document_id: id, class_id: "x" })).status,
    ).toBe(400);
    expect(
      (await review("POST", { version: view.version, action: "confirm_document", document_id: "nope" })).status,
    ).toBe(404);
    expect((await review("POST", { version: view.version, action: "dance" })).status).toBe(400);
    expect(
      (await review("POST", { version: view.version, action: "split_document", document_id: id, at_page: 1 })).status,
    ).toBe(400);
  });

  test("403 without transaction.review; another tenant's reviewer gets 404", async () => {
    const readerKey = await s.clientWithKey("acme-reader", {
      tenant_id: "acme",
      permissions: ["transaction.read", "transaction.download_results"],
    });
    const r = await s.withKey(readerKey)("GET", `/transactions/${txId}/review`);
    expect(r.status).toBe(403);
    expect(r.json.detail).toMatch(/transaction\.review/);
    expect(
      (await s.withKey(readerKey)("POST", `/transactions/${txId}/review`, { version: 1, action: "finish" })).status,
    ).toBe(403);
    const globexKey = await s.clientWithKey("globex-reviewer", {
      tenant_id: "globex",
      permissions: ["transaction.review", "transaction.download_results"],
    });
    expect((await s.withKey(globexKey)("GET", `/transactions/${txId}/review`)).status).toBe(404);
    expect((await s.withKey(globexKey)("GET", `/transactions/${txId}/pages/1/image`)).status).toBe(404);
    expect(
      (await s.withKey(globexKey)("POST", `/transactions/${txId}/review`, { version: 1, action: "finish" })).status,
    ).toBe(404);
  });

  test("finish on a transaction awaiting input: hooks see the confirmed results, exports carry the correction, status completed", async () => {
    const id = await s.submit("acme", project, "inbox/born-digital-invoice.pdf");
    markAwaitingInput(s.t.data.db, id, new Date().toISOString(), {
      step_name: "review",
      instructions: "check totals",
      timeout_hours: 24,
    });
    const seen: any[] = [];
    s.t.deps.onReviewFinished = [(e) => void seen.push(e)];
    let view = (await review("GET", undefined, id)).json;
    expect(view).toMatchObject({
      status: "awaiting_input",
      review_metadata: { step_name: "review", instructions: "check totals" },
    });
    const doc = view.documents[0];
    view = (
      await review(
        "POST",
        {
          version: view.version,
          action: "set_field",
          document_id: doc.document_id,
          field_id: "invoice_number",
          value: "REVIEWED-1",
        },
        id,
      )
    ).json;
    const done = await review("POST", { version: view.version, action: "finish" }, id);
    expect(done.status).toBe(200);
    expect(done.json).toMatchObject({
      finished: true,
      last_human_review: { reviewed: true, finished: true, action: "finish" },
    });
    expect((await s.waitFor(id, ["completed", "failed"])).status).toBe("completed");
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ transaction_id: id, reviewer: { id: "acme-reviewer" } });
    expect(seen[0].results.documents[0].fields.invoice_number).toMatchObject({
      value: "REVIEWED-1",
      is_confirmed: true,
    });
    const manifest = (await s.withKey(reviewerKey)("GET", `/transactions/${id}/exports`)).json;
    const file = manifest.profiles.json.files[0].filename;
    const exported = (await s.withKey(reviewerKey)("GET", `/transactions/${id}/exports/download/${file}`)).json;
    expect(exported.documents[0].fields.invoice_number).toMatchObject({ value: "REVIEWED-1", is_confirmed: true });
    expect(exported.transaction.last_human_review).toMatchObject({
      reviewed: true,
      finished: true,
      reviewer: { id: "acme-reviewer" },
    });
    const again = (await review("GET", undefined, id)).json;
    expect(again).toMatchObject({ status: "completed", finished: true });
    expect((await review("POST", { version: again.version, action: "finish" }, id)).status).toBe(400);
    s.t.deps.onReviewFinished = undefined;
  }, 300_000);
});
