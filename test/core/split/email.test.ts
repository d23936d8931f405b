/**
 * E-mail import (spec rule 9): an .eml becomes its rendered body (single_document) plus its attachments (inherit).
 * The MIME reading is our own: multipart, base64, quoted-printable, RFC 2047 headers, RFC 2231 file names.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { DocprocError } from "../../../src/core/errors";
import type { SourceInput } from "../../../src/core/model";
import { expandEmailSource, htmlToText } from "../../../src/core/split/email";
import { decodeEncodedWords } from "../../../src/core/split/mime";
import { SplitSettingsSchema } from "../../../src/core/project/split";
import { convertText } from "../../../src/core/stages/convert";
import { splitPages } from "../../../src/core/stages/split";
import { CORPORA, convertFile } from "./helpers";
import { wholeBytes } from "../../../src/core/source-data";

const invoicePdf = new Uint8Array(readFileSync(`${CORPORA}invoice2data/AmazonWebServices.pdf`));
const text = (s: SourceInput) => new TextDecoder().decode(wholeBytes(s.data));

function wrap76(s: string): string {
  return s.match(/.{1,76}/g)!.join("\r\n");
}

const nested = [
  "From: billing@vendor.example",
  "To: alice@example.com",
  "Subject: Original invoice mail",
  "Content-Type: multipart/mixed; boundary=inner",
  "",
  "--inner",
  "Content-Type: text/plain",
  "",
  "Forwarded body",
  "--inner",
  "Content-Type: text/csv; name=lines.csv",
  "Content-Disposition: attachment",
  "",
  "a,b",
  "--inner--",
].join("\r\n");

const eml = [
  "Return-Path: <joerg@example.de>",
  "From: =?iso-8859-1?Q?J=F6rg_M=FCller?= <joerg@example.de>",
  "To: Accounts Payable <ap@example.org>,",
  "  Bob <bob@example.org>",
  "Subject: =?utf-8?B?UmVjaG51bmdlbiBmw7xy?= =?utf-8?B?IE3DpHJ6?=",
  "Date: Tue, 3 Mar 2026 09:15:00 +0100",
  "MIME-Version: 1.0",
  'Content-Type: multipart/mixed; boundary="=_outer_1"',
  "",
  "This is a multi-part message in MIME format.",
  "--=_outer_1",
  'Content-Type: multipart/alternative; boundary="alt"',
  "",
  "--alt",
  "Content-Type: text/plain; charset=utf-8",
  "Content-Transfer-Encoding: quoted-printable",
  "",
  "Hallo, anbei die Rechnung f=C3=BCr M=C3=A4rz. Dies ist eine sehr lange Zeile, die=",
  " weich umbrochen wurde.",
  "--alt",
  "Content-Type: text/html; charset=utf-8",
  "",
  "<p>Hallo, anbei die Rechnung</p>",
  "--alt--",
  "--=_outer_1",
  "Content-Type: application/pdf",
  "Content-Transfer-Encoding: base64",
  "Content-Disposition: attachment; filename*=UTF-8''Rechnung%20M%C3%A4rz.pdf",
  "",
  wrap76(Buffer.from(invoicePdf).toString("base64")),
  "--=_outer_1",
  "Content-Type: message/rfc822",
  'Content-Disposition: attachment; filename="forwarded.eml"',
  "",
  nested,
  "--=_outer_1--",
  "",
].join("\r\n");

const source = (data: string | Uint8Array, filename = "mail.eml", content_type?: string): SourceInput => ({
  index: 0,
  filename,
  content_type,
  data: typeof data === "string" ? new TextEncoder().encode(data) : data,
  split_policy: "inherit",
});

describe("e-mail import", () => {
  const out = expandEmailSource(source(eml));

  test("renders the body with From, To, Subject and Date as a single_document text source", () => {
    const body = out[0];
    expect(body.split_policy).toBe("single_document");
    expect(body.filename).toBe("mail.txt");
    expect(body.content_type).toBe("text/plain; charset=utf-8");
    const lines = text(body).split("\n");
    expect(lines.slice(0, 4)).toEqual([
      "From: Jörg Müller <joerg@example.de>",
      "To: Accounts Payable <ap@example.org>, Bob <bob@example.org>",
      "Subject: Rechnungen für März",
      "Date: Tue, 3 Mar 2026 09:15:00 +0100",
    ]);
    expect(text(body)).toContain(
      "Hallo, anbei die Rechnung für März. Dies ist eine sehr lange Zeile, die weich umbrochen wurde.",
    );
    expect(text(body)).not.toContain("<p>");
  });

  test("turns each attachment into an inherit source with its decoded name and exact bytes", async () => {
    expect(out.map((s) => [s.filename, s.split_policy])).toEqual([
      ["mail.txt", "single_document"],
      ["Rechnung März.pdf", "inherit"],
      ["forwarded.txt", "single_document"],
      ["lines.csv", "inherit"],
    ]);
    expect(out.map((s) => s.index)).toEqual([0, 1, 2, 3]);
    const pdf = out[1];
    expect(pdf.content_type).toBe("application/pdf");
    expect(Buffer.from(wholeBytes(pdf.data)).equals(Buffer.from(invoicePdf))).toBe(true);
    // The attachment is a real, readable PDF for the conversion stage.
    const converted = await convertFile(wholeBytes(pdf.data), { filename: pdf.filename, maxSidePx: 600 });
    try {
      expect(converted.pages[0].text).toContain("Amazon Web Services");
    } finally {
      await converted.close();
    }
  }, 30_000);

  test("expands an attached e-mail the same way (its body single_document, its attachments inherit)", () => {
    expect(text(out[2])).toContain("Subject: Original invoice mail");
    expect(text(out[2])).toContain("Forwarded body");
    expect(text(out[3]).trim()).toBe("a,b");
  });

  test("through Split, the body stays one document while attachment pages follow the project mode", async () => {
    const bodyFile = convertText(text(out[0]) + "\fsecond body page", 1);
    const pdf = await convertFile(wholeBytes(out[1].data), {
      fileIndex: 1,
      firstPageNumber: bodyFile.pages.length + 1,
      maxSidePx: 600,
    });
    try {
      const spans = await splitPages(
        [
          { index: 0, filename: out[0].filename, policy: out[0].split_policy, pages: bodyFile.pages },
          { index: 1, filename: out[1].filename, policy: out[1].split_policy, pages: pdf.pages },
        ],
        SplitSettingsSchema.parse({ mode: "per_page" }),
      );
      expect(spans.map((s) => [s.page_numbers, s.policy])).toEqual([
        [[1, 2], "single_document"],
        [[3], "inherit"],
      ]);
    } finally {
      await pdf.close();
    }
  }, 30_000);

  test("an HTML-only message is rendered as text", () => {
    const html = [
      "From: a@example.com",
      "Subject: Hi",
      "Content-Type: text/html; charset=utf-8",
      "Content-Transfer-Encoding: base64",
      "",
      Buffer.from(
        "<html><style>p{}</style><body><p>Total &amp; due:&nbsp;5&#8364;</p><br>Thanks</body></html>",
      ).toString("base64"),
    ].join("\n");
    const [body, ...rest] = expandEmailSource(source(html, "hi.eml"));
    expect(rest).toEqual([]);
    expect(text(body)).toBe("From: a@example.com\nSubject: Hi\n\nTotal & due: 5€\n\nThanks\n");
  });

  test("recognises message/rfc822 by content type and leaves other sources alone", () => {
    expect(expandEmailSource(source(eml, "upload.bin", "message/rfc822"))).toHaveLength(4);
    const pdf = source(invoicePdf, "invoice.pdf", "application/pdf");
    expect(expandEmailSource(pdf)).toEqual([pdf]);
  });

  test("an empty e-mail is an empty_file error, a malformed one still yields a body", () => {
    expect(() => expandEmailSource(source(""))).toThrow(DocprocError);
    const [body, ...rest] = expandEmailSource(source("no headers at all, just text"));
    expect(rest).toEqual([]);
    expect(body.split_policy).toBe("single_document");
    expect(text(body).trim()).toBe("no headers at all, just text");
    const emptyAttached =
      "Subject: y\nContent-Type: multipart/mixed; boundary=b\n\n--b\nContent-Type: text/plain\n\nhi\n--b\nContent-Type: message/rfc822\n\n--b--\n";
    expect(expandEmailSource(source(emptyAttached)).map((s) => [s.filename, s.data.byteLength])).toEqual([
      ["mail.txt", "Subject: y\n\nhi\n".length],
      ["attachment-1.eml", 0],
    ]);
    const [broken] = expandEmailSource(
      source('Subject: x\nContent-Type: multipart/mixed; boundary="never"\n\nno parts here'),
    );
    expect(text(broken)).toBe("Subject: x\n\n\n");
  });

  test("decodes RFC 2047 words in Q and B encodings and strips HTML", () => {
    expect(decodeEncodedWords("=?UTF-8?Q?Gr=C3=BC=C3=9Fe_aus_K=C3=B6ln?=")).toBe("Grüße aus Köln");
    expect(decodeEncodedWords("Re: =?windows-1252?Q?=80_100?= ok")).toBe("Re: € 100 ok");
    expect(htmlToText("<div>a</div><div>b</div>").trim()).toBe("a\nb");
  });
});
