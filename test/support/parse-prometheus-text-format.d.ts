/** Types for the Prometheus text-format parser the metrics tests use (the package ships none). */
declare module "parse-prometheus-text-format" {
  export interface Sample {
    labels?: Record<string, string>;
    value?: string;
    /** Histograms: cumulative counts by upper bound (`le`). */
    buckets?: Record<string, string>;
    count?: string;
    sum?: string;
  }
  export interface MetricFamily {
    name: string;
    help: string;
    type: "COUNTER" | "GAUGE" | "HISTOGRAM" | "SUMMARY" | "UNTYPED";
    metrics: Sample[];
  }
  export default function parsePrometheusTextFormat(text: string): MetricFamily[];
}
