/**
 * The EN 16931 semantic model as docproc holds it between reading and writing: BT values by id (text as in the
 * source; dates ISO), groups by BG id, each instance a node of the same shape.
 */

export interface BtNode {
  values: Record<string, string>;
  groups: Record<string, BtNode[]>;
}

export type Syntax = "UBL" | "CII";

export interface EInvoiceModel {
  syntax: Syntax;
  /** UBL CreditNote (a CII credit note is a type code only). */
  credit: boolean;
  data: BtNode;
}

export const emptyNode = (): BtNode => ({ values: {}, groups: {} });

/** Document type codes written as a UBL CreditNote (EN 16931 credit note codes, UNTDID 1001). */
export const CREDIT_NOTE_CODES = new Set(["81", "83", "261", "262", "296", "308", "381", "396", "420", "458", "532"]);

/** UBL CreditNote element names and their Invoice counterparts (the table is written with the latter). */
export const CREDIT_NOTE_NAMES: Record<string, string> = {
  CreditNote: "Invoice",
  CreditNoteTypeCode: "InvoiceTypeCode",
  CreditNoteLine: "InvoiceLine",
  CreditedQuantity: "InvoicedQuantity",
};

/** The single (first) instance of a group path below `node`, created on demand when `create`. */
export function groupAt(node: BtNode, path: string[], create: boolean): BtNode | undefined {
  let cur = node;
  for (const id of path) {
    let next = cur.groups[id]?.[0];
    if (!next) {
      if (!create) return undefined;
      next = emptyNode();
      cur.groups[id] = [next];
    }
    cur = next;
  }
  return cur;
}
