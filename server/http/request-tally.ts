/**
 * Requests counted in plain numbers as they pass, and handed to prom-client as a counter and a
 * histogram only when scraped. prom-client's own `observe` and `inc` check and hash the labels on
 * every call, which at thousands of requests a second cost more than serving a cached answer.
 */
import type { Metric, Registry } from 'prom-client';

interface Series {
  labels: { method: string; route: string; status: string };
  count: number;
  sum: number;
  /** Requests per bucket (not cumulative); the last one is +Inf. */
  buckets: number[];
}

interface Sample {
  value: number;
  labels: Record<string, string | number>;
  metricName?: string;
}

export class RequestTally {
  private readonly series = new Map<string, Series>();

  constructor(private readonly bounds: readonly number[]) {}

  record(method: string, route: string, status: number, seconds: number): void {
    const id = `${method} ${route} ${status}`;
    let series = this.series.get(id);
    if (!series) {
      series = { labels: { method, route, status: String(status) }, count: 0, sum: 0, buckets: new Array<number>(this.bounds.length + 1).fill(0) };
      this.series.set(id, series);
    }
    series.count++;
    series.sum += seconds;
    let bucket = 0;
    while (bucket < this.bounds.length && seconds > (this.bounds[bucket] as number)) bucket++;
    series.buckets[bucket]++;
  }

  /** Puts the request counter and the latency histogram, under the names given, on `registry`. */
  register(registry: Registry, counter: { name: string; help: string }, histogram: { name: string; help: string }): void {
    registry.registerMetric(this.metric(counter.name, counter.help, 'counter', () => this.counterSamples()));
    registry.registerMetric(this.metric(histogram.name, histogram.help, 'histogram', () => this.histogramSamples(histogram.name)));
  }

  private counterSamples(): Sample[] {
    return [...this.series.values()].map((s) => ({ value: s.count, labels: s.labels }));
  }

  private histogramSamples(name: string): Sample[] {
    const samples: Sample[] = [];
    for (const s of this.series.values()) {
      let cumulative = 0;
      s.buckets.forEach((inBucket, i) => {
        cumulative += inBucket;
        samples.push({ metricName: `${name}_bucket`, value: cumulative, labels: { ...s.labels, le: this.bounds[i] ?? '+Inf' } });
      });
      samples.push({ metricName: `${name}_sum`, value: s.sum, labels: s.labels });
      samples.push({ metricName: `${name}_count`, value: s.count, labels: s.labels });
    }
    return samples;
  }

  /**
   * What the registry asks of a metric: its name, help, type and, when scraped, its samples.
   * prom-client's Metric type names its own classes; the registry reads only these fields.
   */
  private metric(name: string, help: string, type: 'counter' | 'histogram', values: () => Sample[]): Metric {
    const metric = { name, help, type, aggregator: 'sum', get: async () => ({ name, help, type, aggregator: 'sum', values: values() }) };
    return metric as unknown as Metric;
  }
}
