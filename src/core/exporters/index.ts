/** Export profiles, exporters and the export manifest. */
export { runExports, profilesForFormats, scopeModeOf } from "./run";
export type { ExportManifest, ManifestFile, ManifestProfileEntry } from "./run";
export type { ExportContext } from "./context";
export { folderSink, memorySink, TextChunks, wholeData, type ExportData, type ExportSink } from "./sink";
export {
  ExportProfileSchema,
  defaultJsonProfile,
  OUTPUT_FORMATS,
  type ExportProfile,
  type ExportProfileInput,
  type OutputFormat,
  type ProfileOf,
} from "../project/exports";
export { buildJsonExport } from "./json";
export { correctedResults, rotateBox, quarterTurn, type Orientation } from "./orientation";
export { neutralizeFormula, toCsv } from "./csv";
export { renderTemplate, sanitizePath, sanitizeSegment, PLACEHOLDERS } from "./filename";
