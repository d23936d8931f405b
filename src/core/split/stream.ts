/**
 * The page stream a splitter works on, and a small builder that collects documents from it.
 */
import type { DocumentSpan, Page, SplitPolicy } from "../model";
import { minOf, pushAll } from "../arrays";

export interface StreamPage {
  page: Page;
  fileIndex: number;
  /** First page of its source file. */
  firstOfFile: boolean;
}

/** A document being assembled. `confidences` are the decisions that shaped it (start, continuations, end). */
interface DraftDocument {
  pages: number[];
  separatorPages: number[];
  startReason: string;
  confidences: number[];
}

/**
 * Collects documents in stream order. Separator pages seen before a document's first page are attached to it
 * (`separator_pages`); trailing ones to the last document.
 */
export class SpanBuilder {
  private readonly docs: DraftDocument[] = [];
  private pendingSeparators: number[] = [];
  private current: DraftDocument | null = null;

  constructor(private readonly policy: SplitPolicy) {}

  /** Starts a new document with this page. `confidence` is the confidence that a document starts here. */
  start(pageNumber: number, reason: string, confidence = 1): void {
    if (this.current) this.current.confidences.push(confidence);
    this.current = {
      pages: [pageNumber],
      separatorPages: this.pendingSeparators,
      startReason: reason,
      confidences: [confidence],
    };
    this.pendingSeparators = [];
    this.docs.push(this.current);
  }

  /** Adds a page to the current document, `confidence` being that it belongs there (starts one when there is none). */
  add(pageNumber: number, confidence = 1): void {
    if (!this.current) return this.start(pageNumber, "start of the page stream");
    this.current.pages.push(pageNumber);
    this.current.confidences.push(confidence);
  }

  /** A dropped separator page: it ends the current document; the next page starts a new one. */
  drop(pageNumber: number): void {
    this.pendingSeparators.push(pageNumber);
    this.current = null;
  }

  get hasOpenDocument(): boolean {
    return this.current !== null;
  }

  spans(): DocumentSpan[] {
    const last = this.docs[this.docs.length - 1];
    if (last && this.pendingSeparators.length > 0) pushAll(last.separatorPages, this.pendingSeparators);
    return this.docs.map((d) => {
      const span: DocumentSpan = {
        page_numbers: d.pages,
        confidence: round(minOf(d.confidences)),
        reason: d.startReason,
        policy: this.policy,
      };
      if (d.separatorPages.length > 0) span.separator_pages = d.separatorPages;
      return span;
    });
  }
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}
