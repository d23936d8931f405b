import type { Document } from "slimdom";
import type { EInvoiceFinding, Syntax } from "./index";
export function structuralChecks(_doc: Document, _syntax: Syntax): EInvoiceFinding[] { return []; }
