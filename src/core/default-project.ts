/**
 * The embedded default project (raw settings; `project.ts` validates it into `defaultProject`).
 * Labels are multilingual (en, de, fr, nl, es, it, pl) and generic: nothing here names a vendor.
 * Within a label list the most specific label comes first; the extractor trusts earlier labels more.
 */

const ID_NOT_AFTER = ["datum", "date", "totaal", "total", "adres", "address", "adresse", "bedrag", "summe"];

const invoiceNumber = {
  id: "invoice_number", name: "Invoice number", type: "string", required: true,
  hints: {
    recognizer: "identifier",
    labels: [
      "invoice number", "invoice no", "invoice nr", "invoice #", "invoice id", "inv no", "inv #", "bill number", "bill no",
      "receipt number", "receipt no", "doc no", "bill no", "credit note number", "credit note no", "credit memo no", "document number", "document no", "bill #", "bill no.",
      "rechnungsnummer", "rechnungsnr", "rechnung nr", "rechnungs-nr", "re-nr", "rg-nr", "rg.-nr", "gutschriftnummer", "gutschrift nr", "gutschrift-nr", "belegnummer", "belegnr",
      "factuurnummer", "factuurnr", "factuur nr", "creditnota nummer", "creditnotanummer", "creditnota nr", "documentnummer", "numéro de facture", "n° de facture", "facture n°", "n° d'avoir", "numéro d'avoir", "numéro de document", "n° de document",
      "facture no", "facture n", "avoir n°", "numer faktury", "faktura nr", "faktura vat nr", "número de factura", "factura n",
      "factura no", "número de documento", "nº nota de crédito", "nota de crédito nº", "factura rectificativa nº", "numero fattura", "fattura n", "n. fattura", "nota di credito n", "numero documento", "numero di documento", "nº factura", "número", "fatura nº", "numero documento", "beleg-nr", "bon-nr",
      "bon nr", "bonnr", "receipt #", "transaction no", "trans no", "ticket n°", "ticket nº", "n° ticket", "nº ticket", "scontrino n", "documento n", "fakturanummer", "fakturanr", "číslo faktury", "fatura no", "invoice", "factuur", "facture", "rechnung", "faktura", "factura", "fattura",
      "credit note", "credit memo", "creditfactuur", "creditnota", "gutschrift", "rechnungskorrektur", "avoir", "note de crédit", "nota de crédito", "factura rectificativa", "nota di credito",
      "receipt", "booking id", "reference no", "reference", "^#",
    ],
    exclude_after: ID_NOT_AFTER,
    exclude_before: ["order", "customer", "client", "account", "service", "po", "phone", "tel", "vat", "tin", "total", "totale", "totaal", "importe", "summe", "montant", "your", "our", "ihre", "unsere", "uw", "onze", "votre", "notre", "su", "vostro"],
  },
};

const DATE_QUALIFIERS = ["order", "due", "delivery", "ship", "shipping", "check", "start", "end", "payment", "birth", "print", "service", "value", "posting", "expiry", "bestell", "liefer", "leverings", "commande", "livraison", "échéance", "limite"];

const fieldsOfInvoice = (kind: "invoice" | "receipt" | "credit_note") => [
  invoiceNumber,
  {
    id: "invoice_date", name: kind === "receipt" ? "Receipt date" : "Invoice date", type: "date", required: true,
    hints: {
      labels: [
        "invoice date", "date of invoice", "invoice dated", "date of issue", "issue date", "issued on", "date issued", "tax point date", "tax point", "billing date", "bill date",
        "receipt date", "credit note date", "rechnungsdatum", "ausstellungsdatum", "belegdatum", "factuurdatum", "factuur datum",
        "date de facture", "date de la facture", "date d'émission", "data wystawienia", "data faktury", "fecha de factura",
        "fecha de emisión", "data fattura", "data emissione", "fakturadato", "fakturadatum", "datum vystavení", "data de emissão", "date", "datum", "dated", "data", "fecha",
      ],
      exclude_before: DATE_QUALIFIERS,
      fallback_first: true,
    },
  },
  {
    id: "due_date", name: "Due date", type: "date",
    hints: {
      labels: [
        "due date", "payment due", "date due", "due on", "due by", "pay by", "payable by", "fälligkeitsdatum", "fällig am", "fällig bis",
        "zahlungsziel", "zahlbar bis", "vervaldatum", "te betalen voor", "date d'échéance", "date limite de paiement", "échéance",
        "termin płatności", "fecha de vencimiento", "data di scadenza", "scadenza", "vencimiento", "forfaldsdato", "forfallsdato", "förfallodatum", "datum splatnosti", "due",
      ],
    },
  },
  { id: "vendor_name", name: "Vendor name", type: "string", hints: { recognizer: "party", fallback_first: true, labels: ["sold by", "seller", "vendor", "supplier", "issued by", "provided by", "verkäufer", "lieferant", "rechnungssteller", "leistungserbringer", "leverancier", "verkoper", "vendeur", "fournisseur", "émetteur", "sprzedawca", "proveedor", "vendedor", "emisor", "fornitore", "venditore", "cedente"] } },
  { id: "vendor_address", name: "Vendor address", type: "string", hints: { recognizer: "address", fallback_first: true, labels: ["vendor address", "supplier address", "seller address", "address", "adresse", "anschrift", "adres", "dirección", "indirizzo"], exclude_before: ["bill", "to", "ship", "billing", "shipping", "delivery", "email", "e-mail", "mail", "installation", "warehouse", "ip", "web", "invoice", "lieferadresse", "customer", "client", "rechnungs"], exclude_after: ["de", "of", "email", "e-mail", "mail"] } },
  { id: "vendor_vat_id", name: "Vendor VAT ID", type: "string", hints: { recognizer: "vat_id", labels: ["vat id", "vat no", "vat number", "vat reg no", "vat registration number", "ust-idnr", "ust-id-nr", "ust-id", "ustid", "umsatzsteuer-id", "btw-nummer", "btw nummer", "btw nr", "btw", "n° de tva", "tva intracommunautaire", "numéro de tva", "tva", "nip", "nif", "cif", "partita iva", "p.iva", "gstin", "vat"], exclude_before: ["uw", "your", "customer", "client", "ihre", "votre", "kunden", "su", "vostra", "vostro", "buyer", "klant"], exclude_after: ["cliente", "client", "customer", "kunde", "des", "du", "del", "klant", "van", "buyer", "acquirente"] } },
  // Other tax registrations of the seller (a national tax number, BT-32) and the buyer's VAT ID (BT-48): e-invoices
  // carry them apart from the seller's VAT ID; on a page only a label naming them counts (no recogniser: any VAT ID
  // on the page is the seller's more often than the buyer's).
  { id: "vendor_tax_id", name: "Vendor tax number", type: "string", hints: { recognizer: "text", labels: ["tax number", "tax no", "tax reference", "tax registration", "steuernummer", "steuer-nr", "st.-nr", "numéro fiscal", "numero fiscale", "codice fiscale", "f-skatt"], exclude_before: ["vat", "customer", "your", "ihre", "kunden", "client", "buyer"] } },
  { id: "customer_vat_id", name: "Customer VAT ID", type: "string", hints: { recognizer: "identifier", labels: ["customer vat id", "customer vat no", "customer vat number", "customer vat", "your vat id", "your vat no", "your vat number", "buyer vat id", "buyer vat", "client vat", "ihre ust-idnr", "ihre ust-id", "kunden-ust-idnr", "ust-idnr. des kunden", "uw btw-nummer", "uw btw nr", "btw klant", "votre n° de tva", "n° tva client", "tva client", "partita iva cliente", "nif cliente", "cif cliente"] } },
  { id: "customer_name", name: "Customer name", type: "string", hints: { recognizer: "party", labels: ["bill to", "billed to", "invoice to", "sold to", "customer name", "customer", "buyer", "client", "rechnungsempfänger", "leistungsempfänger", "käufer", "kunde", "klant", "koper", "factuuradres", "facturé à", "acheteur", "nabywca", "cliente", "comprador", "acquirente", "cessionario", "guest name"], exclude_before: ["id", "no", "nr"], exclude_after: ["care", "service", "support", "number", "no", "nr", "id", "code", "nummer", "ref", "reference", "account", "vat", "tax"] } },
  { id: "iban", name: "IBAN", type: "string", hints: { recognizer: "iban", labels: ["iban"] } },
  { id: "currency", name: "Currency", type: "string", hints: { recognizer: "currency" } },
  { id: "subtotal_amount", name: "Subtotal", type: "amount", hints: { labels: ["subtotal", "sub total", "sub-total", "net amount", "net total", "total net", "total excl", "total excluding", "total before tax", "amount untaxed", "total ht", "montant ht", "total hors taxes", "sous-total", "total net ht", "subtotale", "totale imponibile", "totale netto", "total sin iva", "importe neto", "subtotal sin iva", "netto totaal", "zwischensumme", "nettobetrag", "summe netto", "gesamt netto", "netto", "subtotaal", "exclusief btw", "totaal excl", "razem netto", "wartość netto", "base imponible", "imponibile"] } },
  { id: "tax_amount", name: "Tax amount", type: "amount", hints: { labels: ["total tax", "tax amount", "vat amount", "total vat", "sales tax", "montant tva", "total tva", "mwst-betrag", "umsatzsteuer", "mehrwertsteuer", "btw bedrag", "kwota vat", "moms", "dph", "sales and service tax", "service tax", "tax", "vat", "gst", "sst", "tva", "mwst", "ust", "btw", "iva"], exclude_before: ["incl", "inclusive", "inclusief", "inkl", "excl", "exclusive", "exclusief", "exkl", "including", "excluding", "prijs", "zzgl", "plus", "ohne", "hors", "sans", "zonder", "uw", "your", "ihre", "votre"], exclude_after: ["id", "no", "number", "nr", "nummer", "reg", "registration", "invoice", "statement"] } },
  { id: "total_amount", name: "Total amount", type: "amount", required: true, hints: { fallback_first: true, labels: ["grand total", "total amount due", "amount due", "total due", "balance due", "total amount", "invoice total", "invoice amount",
    "zu zahlender betrag", "total to pay", "total payable", "amount payable", "amount to pay", "total ttc", "montant ttc", "net à payer", "somme à payer", "montant total", "total à payer", "gesamtbetrag", "rechnungsbetrag", "endbetrag", "zu zahlen", "zahlbetrag", "gesamtsumme", "bruttobetrag", "factuur totaal", "totaalbedrag", "te betalen", "totaal", "należność ogółem", "do zapłaty", "razem do zapłaty", "importe total", "total a pagar", "total factura", "totale documento", "totale fattura", "totale da pagare", "endsumme", "att betala", "at betale", "å betale", "totalt",
    "celkem k úhradě",
    "totale", "razem", "summe", "total", "gesamt", "balance"], exclude_before: ["sub", "net", "netto", "zwischen"], exclude_after: ["ht", "net", "netto", "excl", "exclusief", "excluding", "ohne", "hors", "before", "untaxed", "tax", "vat", "tva", "btw", "mwst", "ust", "weight", "qty", "quantity", "items", "pages"] } },
  { id: "purchase_order_number", name: "Purchase order number", type: "string", hints: { recognizer: "identifier", labels: ["purchase order number", "purchase order no", "purchase order", "po number", "po no", "po #", "p.o. number", "p.o.", "order number", "order no", "order id", "bestellnummer", "bestellnr", "bestellung nr", "auftragsnummer", "ordernummer", "bestelnummer", "n° de commande", "numéro de commande", "commande n°", "numer zamówienia", "número de pedido"], exclude_after: ID_NOT_AFTER } },
  {
    id: "line_items", name: "Line items", type: "table",
    columns: [
      { id: "description", name: "Description", type: "string", labels: ["description", "item", "items", "product", "article", "service", "designation", "désignation", "libellé", "artikel", "beschreibung", "bezeichnung", "leistung", "omschrijving", "nazwa towaru", "nazwa", "descripción", "descrizione", "product title"] },
      { id: "quantity", name: "Quantity", type: "number", labels: ["quantity", "qty", "menge", "anzahl", "aantal", "hoeveelheid", "quantité", "qté", "nombre", "ilość", "cantidad", "quantità", "units"] },
      { id: "unit_price", name: "Unit price", type: "amount", labels: ["unit price", "price", "rate", "unit cost", "einzelpreis", "preis", "vk-preis", "prijs per stuk", "prijs", "stuksprijs", "prix unitaire", "p.u. ht", "p.u.", "pu ht", "cena", "precio", "prezzo"] },
      { id: "amount", name: "Amount", type: "amount", labels: ["amount", "total", "line total", "betrag", "gesamt", "zeilenbetrag", "gesamtpreis", "bedrag", "totaal", "montant ht", "montant", "prijs incl. btw", "prix ttc", "bedrag incl", "prijs incl", "wartość", "importe", "importo"] },
    ],
  },
];

/**
 * Words of any billing document, credit notes as much as invoices (tax, bank and totals vocabulary). Both classes
 * carry them, so they tell billing documents from letters and contracts without tipping a credit note into an
 * invoice: between those two, the title and the specific cues decide.
 */
const BILLING_CUES = [
  "vat", "iban", "btw", "tva", "mwst", "ust-idnr", "steuernummer", "nettobetrag", "gesamtbetrag", "subtotal", "sales tax", "iva", "nif",
  "cif", "importe", "base imponible", "imponibile", "partita iva", "total ttc", "ttc", "total ht", "montant ht", "bill to",
];

const cls = (id: string, name: string, description: string, cue_words: string[], cue_patterns: string[] = [], negative_cue_words: string[] = []) => ({
  id, name, description, cue_words, cue_patterns, negative_cue_words,
});

export const DEFAULT_PROJECT_RAW: Record<string, unknown> = {
  name: "Default project",
  locale: "auto",
  classes: [
    cls("invoice", "Invoice", "A request for payment for goods or services", [
      "invoice", "tax invoice", "retail invoice", "bill", "invoice number", "invoice date", "amount due", "rechnung", "rechnungsnummer", "rechnungsdatum",
      "factuur", "factuurnummer", "factuurdatum", "facture", "faktura", "factura", "fattura", "due date",
      "payment terms", "zahlungsziel", "facture n°", "net à payer", "te betalen", "vervaldatum",
      "total a pagar", "fatura", "nota fiscal", "fecha de vencimiento", "data di scadenza", "date d'échéance", "fälligkeitsdatum", "invoice total",
      ...BILLING_CUES,
    ], ["\\binv(oice)?[\\s.#:-]*(no|nr|number)\\b", "(?<![\\p{L}])\\p{L}{3,}rechnung(?![\\p{L}])"],
    ["credit note", "credit memo", "gutschrift", "rechnungskorrektur", "creditnota", "creditfactuur", "avoir", "note de crédit", "nota de crédito", "factura rectificativa", "nota di credito", "purchase order"]),
    { ...cls("credit_note", "Credit note", "A document reducing an amount owed (refund, credit)", [
      "credit note", "credit memo", "gutschrift", "rechnungskorrektur", "creditnota", "creditfactuur", "avoir", "note de crédit",
      "faktura korygująca", "nota de crédito", "nota di credito", "refund", "credited", "factura rectificativa", "storno",
      "stornorechnung", "credit note number", "gutschriftnummer", "creditnotanummer", "n° d'avoir", "nota de abono", "abono",
      ...BILLING_CUES,
    ]), amount_sign: "negative" },
    cls("receipt", "Receipt", "Proof of a payment already made (till receipt, payment receipt)", [
      "receipt", "payment receipt", "cash receipt", "kassenbon", "quittung", "kassenbeleg", "bon", "kassabon", "reçu", "ticket de caisse",
      "paragon", "recibo", "scontrino", "paid", "cash", "change", "thank you for your purchase", "payment received", "card",
      "bar", "rückgeld", "wechselgeld", "gegeben", "kasse", "espèces", "especes", "rendu", "monnaie", "contant", "wisselgeld",
      "efectivo", "contanti", "ticket", "bon-nr", "beleg-nr", "bonnr", "cashier", "tendered",
      // Not "pin", "terminal", "carta", "cambio", "resto": everyday words elsewhere (the change pattern below has them).
      "kartenzahlung", "ec-karte", "girocard", "carte bancaire", "tarjeta", "bancomat", "contactless", "kontaktlos",
      "sans contact", "auth code", "kassa", "scontrino n",
    ], ["\\b(visa|mastercard|maestro)\\b", "\\bchange\\s+due\\b",
      // A masked card number ("****1234") and a date with the time of day are what payment terminals and tills print.
      "(?:\\*{3,}|[xX]{4,})\\s?\\d{4}(?!\\d)", "(?<!\\d)\\d{1,4}[./-]\\d{1,2}[./-]\\d{2,4}\\s+\\d{1,2}:\\d{2}(?!\\d)",
      // The change handed back, printed with its amount: only a till receipt does that.
      "(?<![\\p{L}])(change|rückgeld|wechselgeld|rendu|monnaie rendue|wisselgeld|terug|cambio|vuelto|resto)\\s*:?\\s*[-€$£]?\\s*\\d+[.,]\\d{2}"]),
    cls("purchase_order", "Purchase order", "An order placed with a supplier", [
      "purchase order", "po number", "order confirmation", "bestellung", "bestellnummer", "auftragsbestätigung", "inkooporder",
      "bestelling", "bon de commande", "zamówienie", "orden de compra", "ordine d'acquisto", "ship to", "delivery date",
      // Order numbers and dates are quoted by invoices too: only the names of the document and of the supplier count.
      "pedido", "ordine di acquisto", "lieferant", "leverancier", "fournisseur", "proveedor", "fornitore", "vendor", "supplier",
    ], [], ["invoice", "rechnung", "factuur", "facture", "factura", "fattura"]),
    cls("contract", "Contract", "An agreement between parties", [
      "contract", "agreement", "party", "parties", "hereby", "terms and conditions", "signature", "vertrag", "vereinbarung",
      "vertragspartner", "overeenkomst", "contrat", "umowa", "contrato", "contratto", "whereas", "termination", "governing law",
      "partes", "parti", "partijen", "parteien", "kündigung", "laufzeit", "résiliation", "préavis", "opzegging", "looptijd", "rescisión", "recesso",
      "durata", "duración", "durée", "unterschrift", "handtekening", "firma", "firma delle parti",
    ], ["(?:§|\\b(?:article|artikel|articolo|artículo|clause|cláusula|clausola))\\s*\\d+", "(?<![\\p{L}])\\p{L}+(vertrag|vereinbarung)(?![\\p{L}])"]),
    cls("letter", "Letter", "Correspondence addressed to a person", [
      "dear", "sincerely", "yours faithfully", "kind regards", "best regards", "sehr geehrte", "mit freundlichen grüßen",
      "geachte", "met vriendelijke groet", "madame", "monsieur", "cordialement", "szanowni", "estimado", "gentile", "re:", "betreff",
      "atentamente", "estimada", "asunto", "saludos", "cordiali saluti", "distinti saluti", "egregio", "oggetto", "objet", "betreft",
      "hoogachtend", "hochachtungsvoll", "yours sincerely", "veuillez agréer", "je vous prie", "dear sir", "dear madam",
    ]),
    cls("other", "Other", "Anything that is none of the above", []),
  ],
  fields: {
    invoice: fieldsOfInvoice("invoice"),
    credit_note: fieldsOfInvoice("credit_note"),
    receipt: fieldsOfInvoice("receipt"),
    purchase_order: [
      { ...invoiceNumber, id: "purchase_order_number", name: "Purchase order number", hints: { recognizer: "identifier", labels: ["purchase order number", "purchase order no", "po number", "po no", "order number", "order no", "bestellnummer", "bestellnr", "bestelnummer", "numéro de commande", "commande n°", "numer zamówienia", "purchase order", "order"], exclude_after: ID_NOT_AFTER } },
      { id: "order_date", name: "Order date", type: "date", hints: { labels: ["order date", "po date", "bestelldatum", "besteldatum", "date de commande", "data zamówienia", "date", "datum"], fallback_first: true } },
      { id: "vendor_name", name: "Vendor name", type: "string", hints: { recognizer: "party", fallback_first: true, labels: ["vendor", "supplier", "lieferant", "leverancier", "fournisseur", "dostawca"] } },
      { id: "currency", name: "Currency", type: "string", hints: { recognizer: "currency" } },
      { id: "total_amount", name: "Total amount", type: "amount", hints: { labels: ["grand total", "total amount", "order total", "gesamtbetrag", "totaal", "total", "summe"], exclude_before: ["sub"], exclude_after: ["net", "netto", "ht", "excl"] } },
    ],
    contract: [
      { id: "contract_date", name: "Contract date", type: "date", hints: { labels: ["dated", "date", "datum", "effective date", "signed on"], fallback_first: true } },
    ],
    letter: [
      { id: "letter_date", name: "Letter date", type: "date", hints: { labels: ["date", "datum", "dated"], fallback_first: true } },
    ],
  },
  split: {},
  validation_rules: [
    { id: "invoice_number_required", type: "required", field: "invoice_number", class_ids: ["invoice", "credit_note"], severity: "warning" },
    { id: "total_required", type: "required", field: "total_amount", class_ids: ["invoice", "credit_note", "receipt"], severity: "warning" },
    { id: "subtotal_plus_tax_is_total", type: "sum_equals", fields: ["subtotal_amount", "tax_amount"], total: "total_amount", tolerance: 0.02 },
    // Gross line prices (tax included, as till receipts and consumer shops print them) add up to the total instead.
    { id: "line_items_sum_to_subtotal", type: "table_sum_equals", table: "line_items", column: "amount", total: "subtotal_amount", or_totals: ["total_amount"], tolerance: 0.02 },
    { id: "due_date_not_before_invoice_date", type: "date_order", before: "invoice_date", after: "due_date" },
    { id: "currency_is_iso_4217", type: "pattern", field: "currency", pattern: "^[A-Z]{3}$" },
    { id: "invoice_number_unique", type: "unique_in_transaction", field: "invoice_number", class_ids: ["invoice", "credit_note"] },
  ],
  review_thresholds: {},
  export_profiles: [{ id: "json", name: "JSON results", output_format: "json" }],
  workflow: [
    { type: "split" }, { type: "classify" }, { type: "extract" }, { type: "validate" },
    // Present but disabled: integrations that never review are not paused (docs/review.md).
    { type: "review", enabled: false, when: "review_required", timeout_hours: 24, timeout_action: "continue" }, { type: "export" },
    { type: "notification", id: "notify", name: "Notification", activity: null },
  ],
};
