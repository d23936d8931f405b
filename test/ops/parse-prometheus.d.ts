/** parse-prometheus-text-format ships no types: families as prom2json prints them. */
declare module "parse-prometheus-text-format" {
  export default function parsePrometheusTextFormat(text: string): unknown[];
}
