/**
 * Answers computed ahead for a run of pages (a document as reading ahead saw it, core/stages/convert/read-ahead.ts), handed
 * to the stage that asks the same question later (stages/classify/, stages/extract/).
 *
 * Contract: `take` MUST return an answer only for the same page objects, in the same order, whose content (text,
 * words, geometry, text source, page number) is unchanged since `put`, under the same `context` (project, class):
 * results are then the same with or without the memo, only the time differs. An answer is handed over once.
 *
 * Entries live as long as their first page unless taken or forgotten: a run forgets its pages' entries once the
 * stages that ask have run (`forget`), so answers never taken (a page's class, peeked, or a document the splitter
 * cut otherwise) do not stay with the run's pages until it ends (issue 34: memory bounded by design).
 */
import { wordsIdentity } from "./convert/page-words";
import type { Page } from "./model";

interface Stamp {
  text: string;
  words: object;
  transform: Page["image_transform"];
  source: Page["text_source"];
  pageNumber: number;
}

const stampOf = (page: Page): Stamp => ({
  text: page.text,
  words: wordsIdentity(page),
  transform: page.image_transform,
  source: page.text_source,
  pageNumber: page.page_number,
});

const sameStamp = (a: Stamp, b: Stamp) =>
  a.text === b.text &&
  a.words === b.words &&
  a.transform === b.transform &&
  a.source === b.source &&
  a.pageNumber === b.pageNumber;

interface Entry<V> {
  pages: Page[];
  stamps: Stamp[];
  context: readonly unknown[];
  value: V;
}

export class PageMemo<V> {
  // Keyed by the first page, so a run's answer goes when its pages go; one entry per run length (a page is asked
  // about alone by Split and as the start of its document by Classify).
  private readonly entries = new WeakMap<Page, Array<Entry<V>>>();
  private held = 0;

  /** Entries put and neither taken nor forgotten (tests count them; entries of pages collected still count). */
  get size(): number {
    return this.held;
  }

  put(pages: Page[], context: readonly unknown[], value: V): void {
    if (pages.length === 0) return;
    const before = this.entries.get(pages[0]!) ?? [];
    const list = before.filter((e) => e.pages.length !== pages.length);
    list.push({ pages: [...pages], stamps: pages.map(stampOf), context, value });
    this.held += list.length - before.length;
    this.entries.set(pages[0]!, list);
  }

  /** Drops every entry whose run of pages starts at one of `pages`. */
  forget(pages: Iterable<Page>): void {
    for (const page of pages) {
      const list = this.entries.get(page);
      if (!list) continue;
      this.held -= list.length;
      this.entries.delete(page);
    }
  }

  /** The answer for these pages under this context, removed from the memo; undefined when there is none. */
  take(pages: Page[], context: readonly unknown[]): V | undefined {
    const entry = this.find(pages, context);
    if (entry) {
      this.entries.set(
        pages[0]!,
        this.entries.get(pages[0]!)!.filter((e) => e !== entry),
      );
      this.held--;
    }
    return entry?.value;
  }

  /** Like take, but the answer stays (for a question asked several times, such as a one-page document's class). */
  peek(pages: Page[], context: readonly unknown[]): V | undefined {
    return this.find(pages, context)?.value;
  }

  private find(pages: Page[], context: readonly unknown[]): Entry<V> | undefined {
    const list = pages.length ? this.entries.get(pages[0]!) : undefined;
    return list?.find((e) => this.matches(e, pages, context));
  }

  private matches(entry: Entry<V>, pages: Page[], context: readonly unknown[]): boolean {
    if (entry.pages.length !== pages.length || entry.context.length !== context.length) return false;
    if (entry.context.some((c, i) => c !== context[i])) return false;
    return pages.every((p, i) => p === entry.pages[i] && sameStamp(entry.stamps[i]!, stampOf(p)));
  }
}
