// autocannon ships no types; this is the part of its API bench/queries uses.
declare module 'autocannon' {
  interface Options {
    url: string;
    connections?: number;
    duration?: number;
    headers?: Record<string, string>;
  }
  interface Histogram {
    p50: number;
    p90: number;
    p97_5: number;
    p99: number;
    max: number;
    average: number;
  }
  interface Result {
    latency: Histogram;
    requests: { total: number; average: number };
    errors: number;
    timeouts: number;
    non2xx: number;
    '2xx': number;
  }
  function autocannon(options: Options): Promise<Result>;
  export default autocannon;
}
