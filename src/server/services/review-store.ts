/**
 * What the review routes (routes/review.ts) need of a store: the review view of a transaction, one reviewer action
 * applied, a page image. Two stores implement it: the server's database (below) and the results folder of
 * `docproc review` (cli/review-folder.ts), so both serve the review page through the same route module.
 *
 * Contracts every store keeps (docs/review.md): an unknown transaction is `not_found`; a write names the version it
 * is based on (`version` in the body or an If-Match header) and a stale one is `stale_version` with nothing
 * written; the answer to a write is the view after it.
 */
import { principalOf } from "../auth";
import type { ServerDeps } from "../deps";
import { pageImage } from "./page-images";
import { applyReview, reviewView } from "./review";
import { requireTransaction } from "./transactions";

export interface PageImage {
  data: Uint8Array;
  contentType: string;
}

export interface ReviewStore {
  view(transactionId: string): unknown | Promise<unknown>;
  /** `request` names the reviewer where the store has sign-in (the server's principal). */
  apply(transactionId: string, body: unknown, ifMatch: string | null, request: Request): Promise<unknown>;
  pageImage(transactionId: string, pageNumber: number): Promise<PageImage>;
}

/** The server's store: transactions, review states and page images in the data directory's database. */
export function databaseReviewStore(deps: ServerDeps): ReviewStore {
  return {
    view: (id) => reviewView(deps, requireTransaction(deps, id)),
    apply: (id, body, ifMatch, request) =>
      applyReview(deps, requireTransaction(deps, id), principalOf(request), body, ifMatch),
    pageImage: (id, pageNumber) => pageImage(deps, requireTransaction(deps, id), pageNumber),
  };
}
