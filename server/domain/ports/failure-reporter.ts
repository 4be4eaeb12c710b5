/** What background work reports to: every failure, and every success after one. */
export interface FailureReporter {
  /** Log the failure with a fresh identifier and mark the component failing; returns the identifier. */
  failed(component: string, error: unknown): string;
  /** The component's last attempt succeeded. */
  recovered(component: string): void;
}
