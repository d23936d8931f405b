/**
 * The export profiles slice of the project settings lives in core/project/exports.ts; the exporters read it through
 * this module, so their imports stay where they are while other changes edit them.
 */
export * from "../project/exports";
