/**
 * The request counter and latency histogram, counted in plain numbers and exposed in Prometheus
 * text by prom-client's registry: exact counts per label set, cumulative buckets, sum and count.
 */
import { Registry } from 'prom-client';
import { RequestTally } from '../../../server/http/request-tally';

const COUNTER = { name: 'http_requests_total', help: 'HTTP requests answered' };
const HISTOGRAM = { name: 'http_request_duration_seconds', help: 'Time to answer an HTTP request' };

function exposition(record: (tally: RequestTally) => void): Promise<string> {
  const registry = new Registry();
  const tally = new RequestTally([0.001, 0.01, 0.1]);
  tally.register(registry, COUNTER, HISTOGRAM);
  record(tally);
  return registry.metrics();
}

describe('RequestTally', () => {
  it('counts each (method, route, status) apart', async () => {
    const text = await exposition((tally) => {
      tally.record('GET', '/api/v1/exchange-rate/latest', 200, 0.0004);
      tally.record('GET', '/api/v1/exchange-rate/latest', 200, 0.002);
      tally.record('GET', '/api/v1/exchange-rate/latest', 401, 0.0001);
      tally.record('HEAD', '/api/v1/exchange-rate/latest', 200, 0.0001);
    });
    const lines = text.split('\n');
    expect(lines).toContain('# TYPE http_requests_total counter');
    expect(lines).toContain('http_requests_total{method="GET",route="/api/v1/exchange-rate/latest",status="200"} 2');
    expect(lines).toContain('http_requests_total{method="GET",route="/api/v1/exchange-rate/latest",status="401"} 1');
    expect(lines).toContain('http_requests_total{method="HEAD",route="/api/v1/exchange-rate/latest",status="200"} 1');
  });

  it('writes cumulative buckets with +Inf, the sum and the count', async () => {
    const text = await exposition((tally) => {
      for (const seconds of [0.0005, 0.001, 0.005, 0.05, 0.05, 3]) tally.record('GET', '/r', 200, seconds);
    });
    const series = text.split('\n').filter((line) => line.startsWith('http_request_duration_seconds'));
    expect(series).toEqual([
      'http_request_duration_seconds_bucket{method="GET",route="/r",status="200",le="0.001"} 2',
      'http_request_duration_seconds_bucket{method="GET",route="/r",status="200",le="0.01"} 3',
      'http_request_duration_seconds_bucket{method="GET",route="/r",status="200",le="0.1"} 5',
      'http_request_duration_seconds_bucket{method="GET",route="/r",status="200",le="+Inf"} 6',
      'http_request_duration_seconds_sum{method="GET",route="/r",status="200"} 3.1065',
      'http_request_duration_seconds_count{method="GET",route="/r",status="200"} 6',
    ]);
    expect(text).toContain('# TYPE http_request_duration_seconds histogram');
  });

  it('escapes label values as Prometheus text requires', async () => {
    const text = await exposition((tally) => tally.record('GET', '/a"b\\c', 404, 0));
    expect(text).toContain('http_requests_total{method="GET",route="/a\\"b\\\\c",status="404"} 1');
  });
});
