/** Webhook notifications: configuration, payloads, signatures, SSRF guard and delivery. See docs/webhooks.md. */
export * from "../project/notify.ts";
export * from "./payload.ts";
export * from "./sign.ts";
export * from "./ssrf.ts";
export * from "./deliver.ts";
export * from "./retry.ts";
export { classifyAddress, parseIp, parseCidr, formatIp, type AddressClass } from "./ip.ts";
