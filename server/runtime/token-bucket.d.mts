export interface TokenBucket {
  take(): boolean;
  has(): boolean;
  full(): boolean;
  secondsUntilToken(): number;
}

export function tokenBucket(options: { perSecond: number; burst: number; now?: () => number }): TokenBucket;
