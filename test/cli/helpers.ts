import path from "node:path";
import { ROOT } from "../support/process";

export { runCli, type CliRun } from "../support/process";
export const REPO = ROOT;
export const INBOX = path.join(REPO, "fixtures/inbox");
