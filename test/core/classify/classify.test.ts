import { describe, expect, test } from "bun:test";
import type { Page } from "../../../src/core/model";
import { defaultProject, parseProjectSettings } from "../../../src/core/project";
import { classifyDocument } from "../../../src/core/stages/classify";
import { predict, trainClassifier } from "../../../src/core/classify/naive-bayes";

function textPage(text: string, page_number = 1): Page {
  return {
    page_number,
    source_file_index: 0,
    source_filename: "t.txt",
    source_file_page_number: page_number,
    image_transform: {
      rasterized_width: 100,
      rasterized_height: 100,
      source_width: 100,
      source_height: 100,
      source_unit: "pixel",
      render_scale: 1,
      effective_dpi: null,
      coordinate_system: "top-left-origin",
      rotation: 0,
    },
    text_source: "supplied_text",
    words: [],
    text,
    ocr_confidence: null,
  };
}

describe("cue rules of the default project", () => {
  test("an invoice is an invoice, with the deciding cue words in the reasoning", () => {
    const c = classifyDocument(
      [
        textPage(
          "ACME Ltd\nINVOICE\nInvoice number: 123\nInvoice date: 2024-01-02\nSubtotal 10.00\nVAT 1.90\nTotal 11.90",
        ),
      ],
      defaultProject,
    );
    expect(c.class_id).toBe("invoice");
    expect(c.type).toBe("Invoice");
    expect(c.confidence).toBeGreaterThan(0.9);
    expect(c.reasoning).toContain('"invoice"');
    expect(c.reasoning).toContain("(heading)");
    expect(c.review_required).toBe(false);
    expect(c.confirmed).toBeNull();
  });

  test("a German credit note beats invoice although it mentions the invoice it corrects", () => {
    const c = classifyDocument(
      [
        textPage(
          "Gutschrift\nGutschrift Nr. 55 zu Rechnung 123\nBetrag wird gutgeschrieben\nGutschrift gesamt 20,00 EUR",
        ),
      ],
      defaultProject,
    );
    expect(c.class_id).toBe("credit_note");
    expect(c.alternatives.map((a) => a.class_id)).toContain("invoice");
  });

  test("a letter and a contract are told apart", () => {
    expect(
      classifyDocument([textPage("Dear Mr Smith,\nthank you for your letter.\nKind regards\nJane")], defaultProject)
        .class_id,
    ).toBe("letter");
    expect(
      classifyDocument(
        [
          textPage(
            "SERVICE AGREEMENT\nThis agreement is made between the parties.\nArticle 1 Term\nArticle 2 Termination\nGoverning law\nSignature",
          ),
        ],
        defaultProject,
      ).class_id,
    ).toBe("contract");
  });

  test("alternatives are ranked, typed and exclude the chosen class", () => {
    const c = classifyDocument(
      [textPage("Receipt\nThank you for your purchase\nCash 20.00\nChange 2.50\nVAT included")],
      defaultProject,
    );
    expect(c.class_id).toBe("receipt");
    const confs = c.alternatives.map((a) => a.confidence);
    expect(confs).toEqual([...confs].sort((a, b) => b - a));
    expect(c.alternatives.every((a) => a.class_id !== "receipt" && typeof a.type === "string")).toBe(true);
    expect(c.alternatives.length).toBeLessThanOrEqual(3);
  });

  test("text without cues becomes other rather than a bad match", () => {
    const c = classifyDocument(
      [textPage("The quick brown fox jumps over the lazy dog.\nLorem ipsum dolor sit amet.")],
      defaultProject,
    );
    expect(c.class_id).toBe("other");
    expect(c.reasoning).toContain("no cue");
  });

  test("a single weak cue falls back to other and is flagged for review", () => {
    const strict = parseProjectSettings({
      ...defaultProject,
      review_thresholds: { ...defaultProject.review_thresholds, min_class_confidence: 0.9, classification: 0.95 },
    });
    const c = classifyDocument([textPage("Meeting notes\nWe talked about the agreement and lunch.")], strict);
    expect(c.class_id).toBe("other");
    expect(c.review_required).toBe(true);
  });

  test("empty pages classify as other without crashing", () => {
    expect(classifyDocument([], defaultProject).class_id).toBe("other");
    expect(classifyDocument([textPage("")], defaultProject).class_id).toBe("other");
  });
});

const examples = [
  {
    class_id: "payslip",
    text: "Payslip employee gross salary net pay income tax social security deductions pay period",
  },
  { class_id: "payslip", text: "Salary statement gross pay net salary pension contribution tax code employee number" },
  {
    class_id: "bank_statement",
    text: "Bank statement opening balance closing balance transactions debit credit account",
  },
  {
    class_id: "bank_statement",
    text: "Account statement balance brought forward withdrawals deposits closing balance",
  },
];

describe("trained classifier", () => {
  test("a model trained from labelled examples is plain JSON and predicts the right class", () => {
    const model = trainClassifier(examples);
    const roundTripped = JSON.parse(JSON.stringify(model));
    const p = predict(roundTripped, "net salary and income tax for this pay period");
    expect(p.probabilities.payslip!).toBeGreaterThan(p.probabilities.bank_statement!);
    expect(p.top_tokens.length).toBeGreaterThan(0);
  });

  test("classifyDocument uses a given model for classes without cue words and names its tokens", () => {
    const project = parseProjectSettings({
      ...defaultProject,
      classes: [
        { id: "payslip", name: "Payslip" },
        { id: "bank_statement", name: "Bank statement" },
        { id: "other", name: "Other" },
      ],
      fields: {},
      validation_rules: [],
    });
    const c = classifyDocument(
      [textPage("Opening balance 100\nDeposits 50\nClosing balance 150")],
      project,
      trainClassifier(examples),
    );
    expect(c.class_id).toBe("bank_statement");
    expect(c.reasoning).toContain("classifier model");
    expect(c.reasoning).toContain("balance");
  });

  test("example documents listed in the project train the model automatically", () => {
    const project = parseProjectSettings({
      ...defaultProject,
      classes: [
        {
          id: "payslip",
          name: "Payslip",
          example_documents: examples.filter((e) => e.class_id === "payslip").map((e) => ({ text: e.text })),
        },
        {
          id: "bank_statement",
          name: "Bank statement",
          example_documents: examples.filter((e) => e.class_id === "bank_statement").map((e) => ({ text: e.text })),
        },
        { id: "other", name: "Other" },
      ],
      fields: {},
      validation_rules: [],
    });
    expect(classifyDocument([textPage("Employee gross salary, net pay, tax deductions")], project).class_id).toBe(
      "payslip",
    );
  });

  test("training without examples is an invalid_input error", () => {
    expect(() => trainClassifier([])).toThrow(expect.objectContaining({ code: "invalid_input" }));
  });
});

describe("trainFromProject", () => {
  const project = parseProjectSettings({
    ...defaultProject,
    classes: [
      { id: "payslip", name: "Payslip", example_documents: [{ path: "a.pdf" }, { text: examples[1]!.text }] },
      { id: "bank_statement", name: "Bank statement", example_documents: [{ path: "b.pdf" }] },
      { id: "other", name: "Other" },
    ],
    fields: {},
    validation_rules: [],
  });

  test("reads path examples through the given reader and trains on text and path examples", async () => {
    const { trainFromProject } = await import("../../../src/core/stages/classify/train");
    const read: string[] = [];
    const model = await trainFromProject(project, async (p) => {
      read.push(p);
      return p === "a.pdf" ? examples[0]!.text : examples[2]!.text + " " + examples[3]!.text;
    });
    expect(read).toEqual(["a.pdf", "b.pdf"]);
    expect(model.classes.find((c) => c.class_id === "payslip")!.documents).toBe(2);
    expect(classifyDocument([textPage("closing balance and deposits")], project, model).class_id).toBe(
      "bank_statement",
    );
  });

  test("an unreadable example or a single class is an invalid_input error naming the problem", async () => {
    const { trainFromProject } = await import("../../../src/core/stages/classify/train");
    await expect(
      trainFromProject(project, async () => {
        throw new Error("gone");
      }),
    ).rejects.toMatchObject({ code: "invalid_input", message: expect.stringContaining("a.pdf") });
    await expect(trainFromProject(defaultProject, async () => "")).rejects.toMatchObject({
      code: "invalid_input",
      message: expect.stringContaining("at least two classes"),
    });
  });
});

describe("OCR text", () => {
  test("a heading cue with one misread letter still counts on OCR pages, and only there", () => {
    const text = "lNVOICE\nlnvoice Date 2024-01-01\nAmount 99.50";
    const ocr = classifyDocument([{ ...textPage(text), text_source: "ocr" }], defaultProject);
    expect(ocr.class_id).toBe("invoice");
    expect(ocr.reasoning).toContain("OCR-tolerant");
    expect(classifyDocument([textPage(text)], defaultProject).class_id).toBe("other");
  });

  test("an invoice titled with a bare number ('Rechnung 1234567') with a letter's salutation and closing", () => {
    // An ERP export as OCR read it (fixtures/einvoice-visual erp, cvd-03 at 200 DPI): the information block's labels
    // lost to grain, the title "Rechnung 1234567" without "Nr.", "Sehr geehrte …" and "Mit freundlichen Grüßen" (its
    // lines with two letters or more, as read).
    const text = [
      "SCHÄFER",
      "Steuerberatung (haftungsbeschränkt)",
      ": ; BR: : ; ‚Rechnungsnr, i 1234567",
      "Schafer Steuerberatung UG (haftungsbeschrankt) - 12345 ann",
      "' Landesamt für Statistik Osnabrück",
      "98765 Osnabrück",
      "Rechnung 1234567",
      "Damen",
      "Sehr geehrte und Herren,",
      "für unsere Lieferungen und Leistungen berechnen wir Ihnen:",
      "‘Pos. Art.-Nr. Bezeichnung ‘",
      "2% . Vehicle he",
      "2 Clean vehicle :",
      "Bitte",
      '"R echnungsdatum 13.04.2018',
      ". Kundennr. 19309",
      "Ihr Ansprechpartner Tim Tester",
      "Seite 1von 1",
      "Menge Einheit Einzelpreis EUR _ Gesamt EUR",
      "30 Stk.",
      "i AZ Stk",
      "Summe netto",
      "zzgl. 19 % USt. auf 10.781,25 EUR",
      "Rechnungsbetrag",
      "10.781,25 EUR",
      "2.048,44 EUR",
      ": 12.829,69 EUR",
      "überweisen Sie den Rechnungsbetrag von 12.829,69 EUR bis zum 13.04.2018 ohne Abzug auf unser unten",
      "genanntes Konto.",
      "Das Leistungsdatum entspricht dem Rechnungsdatum.",
      "Mit freundlichen Grüßen",
      "Schäfer Steuerberatung UG . Commerzbank Potsdam - USt-IdNr.: DE775637340 ö Geschäftsführer:",
      "(haftungsbeschränkt) IBAN: DE79 0000 0000 1234 5678 90 Steuernummer: 70/297/45741 Tim Tester",
      "12345 Potsdam z Finanzamt Potsdam 5 ‚Amtsgericht Potsdam",
      "Tel. 012 3456789 HRB 9390",
      "tim.tester@test.com",
    ].join("\n");
    const c = classifyDocument([{ ...textPage(text), text_source: "ocr" }], defaultProject);
    // Clearly: the title counts, the sign-off at the end is no title.
    expect([c.class_id, c.confidence > 0.6]).toEqual(["invoice", true]);
  });
});

describe("a bill in the form of a letter", () => {
  test("a consultant's invoice in the form of a letter is an invoice; a letter about an invoice stays a letter", () => {
    // As fixtures/smallbiz2 draws a consultant's letter-style invoice: the salutation and sign-off are its form, the
    // subject line "INVOICE <number> - …" and the sums block say what it is.
    const letterInvoice = [
      "Aroha Parata",
      "CA(SA), Business Consultant",
      "771 Long Street, Rosebank, Johannesburg, 4136 | 083 345 2746 | aroha@arohaparata.co.za",
      "2024/07/05",
      "Umhlanga Property Group",
      "322 Long Street",
      "Dear Sir or Madam,",
      "INVOICE 2024/053 - TAX RETURN PREPARATION",
      "Please find below my account for professional services rendered during June, as agreed in our engagement",
      "Tax return preparation: 3 hours at R252.00 per hour R756.00",
      "Sub Total R756.00",
      "VAT @ 15% R113.40",
      "Total incl. VAT R869.40",
      "Kindly settle this account by 2024/07/12.",
      "Yours faithfully,",
      "Aroha Parata",
    ].join("\n");
    const c = classifyDocument([textPage(letterInvoice)], defaultProject);
    expect(c.class_id).toBe("invoice");
    expect(c.reasoning).toContain("a letter whose subject names the invoice");
    // Without the sums it is a letter about an invoice (a reminder, a query), whatever its subject line says.
    const aboutInvoice = letterInvoice
      .split("\n")
      .filter((l) => !/R\d/.test(l))
      .join("\n");
    expect(classifyDocument([textPage(aboutInvoice)], defaultProject).class_id).toBe("letter");
  });

  test("scanned, its tax amount on a line of its own above the tax word and rate, it is still an invoice", () => {
    // As OCR reads fixtures/smallbiz2's Canadian and New Zealand letters at 200 DPI: the amount far right of
    // "GST (5%)" comes out as a line before it, so no tax line carries an amount.
    const lines = [
      "Rachel Ashworth",
      "CPA, CMC",
      "210 Portage Ave, Laval, QC H7N 7N3 | 373-428-2768 | rachel@rachelashworth.ca",
      "May 3, 2024",
      "Rocky Mountain Outfitters",
      "Dear Sir or Madam,",
      "INVOICE 2024/019 - MANAGEMENT ACCOUNTS",
      "Please find below my account for professional services rendered during April, as agreed in our engagement",
      "Management accounts: 2.5 hours at CA$183.00 per hour CA$457.50",
      "Subtotal: CA$457.50",
      "CA$22.88",
      "GST (5%)",
      "TOTAL CA$480.38",
      "Kindly settle this account by May 10, 2024.",
      "Kind regards,",
      "Rachel Ashworth",
    ];
    const c = classifyDocument([{ ...textPage(lines.join("\n")), text_source: "ocr" }], defaultProject);
    expect([c.class_id, c.reasoning]).toEqual(["invoice", expect.stringContaining("a letter whose subject names")]);
    // A letter about an invoice with a total but no tax at all stays a letter.
    const noTax = lines.filter((l) => !/GST|CA\$22/.test(l)).join("\n");
    expect(classifyDocument([{ ...textPage(noTax), text_source: "ocr" }], defaultProject).class_id).toBe("letter");
  });
});

describe("a craftsman's credit note (fixtures/einvoice-visual hybrid, a Gutschrift read as 'other' at first sight)", () => {
  const creditNote = [
    "Hoffmann Haustechnik GmbH & Co. KG",
    "Elektroinstallation · Photovoltaik",
    "Hoffmann Haustechnik GmbH & Co. KG · Gartenweg 85 · 12345 Kassel",
    "Firma",
    "Stadtverwaltung Potsdam",
    "Lindenallee 116",
    "12345 Potsdam",
    "Gutschrift Nr. 123456XX Datum: 04.04.2016",
    "Kunden-Nr.: 35896 Leistungsdatum: 04.04.2016",
    "Sehr geehrte Damen und Herren,",
    "wir schreiben Ihnen folgende Beträge gut:",
    "Pos. Menge Einh. Bezeichnung EP € GP €",
    "1 1,00 Stk Zeitschrift 288,79 288,79",
    "2 1,00 Stk Porto + Versandkosten 26,07 26,07",
    "Nettobetrag -314,86 €",
    "zzgl. 7 % MwSt. auf -314,86 -22,04 €",
    "Gutschriftsbetrag -336,90 €",
    "Der Betrag wird Ihrem Kundenkonto gutgeschrieben bzw. auf Ihr Konto überwiesen.",
    "Mit freundlichen Grüßen",
    "Hoffmann Haustechnik GmbH & Co. KG Steuernummer: 98/798/36725 Volksbank Kassel",
  ].join("\n");

  test("'Gutschriftsbetrag' is a total, its minus a credit, and a subject line with its date beside it names it", () => {
    const c = classifyDocument([textPage(creditNote)], defaultProject);
    expect(c.class_id).toBe("credit_note");
    expect(c.reasoning).toContain("a letter whose subject names the gutschrift");
    expect(c.reasoning).toContain("a total below zero");
  });

  test("an invoice whose amount left to pay is below zero (prepaid more than the total) stays an invoice", () => {
    const invoice = creditNote
      .replace("Gutschrift Nr.", "Rechnung Nr.")
      .replace("wir schreiben Ihnen folgende Beträge gut:", "für die ausgeführten Arbeiten berechnen wir:")
      .replace(/-(\d)/g, "$1")
      .replace(
        "Gutschriftsbetrag 336,90 €",
        "Rechnungsbetrag 336,90 €\nabzgl. Abschlagszahlung 500,00 €\nRestbetrag -163,10 €",
      )
      .replace("Der Betrag wird Ihrem Kundenkonto gutgeschrieben bzw. auf Ihr Konto überwiesen.", "");
    expect(classifyDocument([textPage(invoice)], defaultProject).class_id).toBe("invoice");
  });
});
