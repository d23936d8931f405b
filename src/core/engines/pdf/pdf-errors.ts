/**
 * The errors a pdf.js worker's requests end in: a request interrupted by another's timeout (asked again by its
 * caller), and pdf.js's exception names turned into stable docproc codes.
 */
import { DocprocError } from "../../errors.ts";
import type { WorkerFailure } from "./pdf-protocol.ts";

export function interruptedError(): DocprocError {
  return new DocprocError("internal", "interrupted: pdf.js was restarted after another request timed out", {
    retryable: true,
    details: { interrupted: true },
  });
}

/** True for a request that failed only because another one made the worker restart. */
export function isInterrupted(err: unknown): boolean {
  return err instanceof DocprocError && err.details?.interrupted === true;
}

/** pdf.js exception names → stable docproc codes. */
export function failureToError(failure: WorkerFailure): DocprocError {
  if (failure.passwordCode === 1) {
    return new DocprocError("encrypted_file", "the PDF is password-protected: supply its password", {
      details: { reason: failure.message },
    });
  }
  if (failure.passwordCode === 2) {
    return new DocprocError("wrong_password", "the password given for this PDF is not correct");
  }
  if (failure.name === "TextOnlyDocument") return new DocprocError("internal", `pdf.js: ${failure.message}`);
  if (failure.name === "InvalidPDFException") {
    return new DocprocError("corrupt_file", `not a readable PDF: ${failure.message}`);
  }
  return new DocprocError("corrupt_file", `the PDF could not be read: ${failure.message}`, {
    details: { pdfjs_error: failure.name },
  });
}
