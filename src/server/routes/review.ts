/**
 * Human review API (docs/review.md) and the page images it shows. Permission `transaction.review` for the review
 * calls; the page image under `/pages/` is a results read (`transaction.download_results`), the same image under
 * `/review/pages/` is for reviewers. Tenant scope is the access guard's (another tenant's transaction is a 404).
 */
import { Elysia } from "elysia";
import { z } from "zod";
import { ReviewActionSchema } from "../../core/stages/review/actions";
import { documentRoutes, type RouteDoc } from "../route-doc";
import { apiRegistry, ErrorSchema } from "../schemas";
import { reviewPageResponse } from "../review-page/index";
import { parsePageIndex } from "../services/page-images";
import type { PageImage, ReviewStore } from "../services/review-store";
import { readJson } from "../validation";

function imageResponse(img: PageImage): Response {
  return new Response(img.data as unknown as BodyInit, {
    headers: {
      "content-type": img.contentType,
      "cache-control": "private, max-age=300",
      "x-content-type-options": "nosniff",
    },
  });
}

/** The review page and API over a store: the server's database, or the results folder of `docproc review`. */
export function reviewRoutes(store: ReviewStore) {
  return new Elysia({ name: "review" })
    .get("/review", () => reviewPageResponse())
    .get("/review/:transaction_id", () => reviewPageResponse())
    .get("/transactions/:transaction_id/review", ({ params }) => store.view(params.transaction_id))
    .post(
      "/transactions/:transaction_id/review",
      async ({ params, request }) =>
        store.apply(params.transaction_id, await readJson(request), request.headers.get("if-match"), request),
      { parse: "none" },
    )
    .get("/transactions/:transaction_id/review/pages/:page_index/image", async ({ params }) =>
      imageResponse(await store.pageImage(params.transaction_id, parsePageIndex(params.page_index))),
    )
    .get("/transactions/:transaction_id/pages/:page_index/image", async ({ params }) =>
      imageResponse(await store.pageImage(params.transaction_id, parsePageIndex(params.page_index))),
    );
}

const err = (description: string) => ({ description, schema: ErrorSchema });
const ReviewBody = z
  .intersection(
    z.object({
      version: z.number().int().min(1).describe("The review version the change is based on (or an If-Match header)"),
    }),
    ReviewActionSchema,
  )
  .register(apiRegistry, {
    id: "ReviewAction",
    description:
      "One reviewer action (docs/review.md). set_field takes a value (text is read by the field type) and optional bounding_boxes; split corrections renumber the documents",
  });
const ReviewView = z
  .object({
    transaction_id: z.string(),
    status: z.string(),
    version: z.number().int(),
    finished: z.boolean(),
    review_metadata: z.record(z.string(), z.unknown()).nullable(),
    last_human_review: z.record(z.string(), z.unknown()),
    validation: z.record(z.string(), z.unknown()),
    source_file_names: z.array(z.string()),
    documents: z.array(z.record(z.string(), z.unknown())),
    pages: z.array(
      z
        .object({
          page_number: z.number().int(),
          image_url: z.string(),
          image_transform: z.record(z.string(), z.unknown()),
          words: z.array(z.object({ text: z.string(), bounding_box: z.array(z.number()), confidence: z.number() })),
        })
        .passthrough(),
    ),
    classes: z.array(z.object({ id: z.string(), name: z.string() })),
    fields: z.record(
      z.string(),
      z.array(z.object({ id: z.string(), name: z.string(), type: z.string(), required: z.boolean() })),
    ),
  })
  .register(apiRegistry, {
    id: "ReviewView",
    description:
      "What a reviewer sees: documents as in the results file, pages with words and image URLs, the project's classes and fields",
  });

export const REVIEW_ROUTE_DOCS: RouteDoc[] = [
  {
    method: "get",
    path: "/review",
    summary: "The review page: sign in, transactions awaiting review (HTML, served locally)",
    tag: "Review",
    public: true,
    responses: { 200: { description: "HTML", content: "text/html" } },
  },
  {
    method: "get",
    path: "/review/{transaction_id}",
    summary: "The review page opened on one transaction (HTML; the data calls need a session)",
    tag: "Review",
    public: true,
    responses: { 200: { description: "HTML", content: "text/html" } },
  },
  {
    method: "get",
    path: "/transactions/{transaction_id}/review",
    summary:
      "Review: documents with fields and boxes, pages with OCR words and image URLs, the version to write against",
    tag: "Review",
    responses: {
      200: { description: "Review view", schema: ReviewView },
      400: err("Transaction is not awaiting_input or completed"),
      401: err("Missing or invalid credentials"),
      404: err("Unknown transaction"),
    },
  },
  {
    method: "post",
    path: "/transactions/{transaction_id}/review",
    summary:
      "Apply one review action: set_field, confirm_field, set_class, confirm_document, move_boundary, merge_documents, split_document, finish (continues the workflow)",
    tag: "Review",
    body: ReviewBody,
    responses: {
      200: { description: "Review view after the action (version + 1)", schema: ReviewView },
      400: err("Invalid action, missing version, or transaction not reviewable"),
      401: err("Missing or invalid credentials"),
      404: err("Unknown transaction, document or field"),
      409: err("Stale version: someone changed the review since; reload and apply again"),
    },
  },
  {
    method: "get",
    path: "/transactions/{transaction_id}/review/pages/{page_index}/image",
    summary: "Page image for reviewers (JPEG, the OCR raster: boxes and words fit unscaled)",
    tag: "Review",
    responses: {
      200: { description: "JPEG", content: "image/jpeg" },
      400: err("page_index is not a page number"),
      401: err("Missing or invalid credentials"),
      404: err("Unknown transaction or page, or a page of supplied text"),
    },
  },
  {
    method: "get",
    path: "/transactions/{transaction_id}/pages/{page_index}/image",
    summary: "Page image (internal, may change: JPEG of the OCR raster, 1-based page_index)",
    tag: "Results",
    responses: {
      200: { description: "JPEG", content: "image/jpeg" },
      400: err("page_index is not a page number"),
      401: err("Missing or invalid credentials"),
      404: err("Unknown transaction or page, or a page of supplied text"),
    },
  },
];
documentRoutes(REVIEW_ROUTE_DOCS);
