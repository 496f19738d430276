import { Component, type ErrorInfo, type ReactNode } from 'react';

export interface SectionBoundaryProps {
  fallback: (error: unknown) => ReactNode;
  onError?: (error: unknown, info: ErrorInfo) => void;
  children: ReactNode;
}

interface SectionBoundaryState {
  error: unknown;
  failed: boolean;
}

/** Keeps a section's failure (loading or rendering) inside its own panel. */
export class SectionBoundary extends Component<SectionBoundaryProps, SectionBoundaryState> {
  override state: SectionBoundaryState = { error: null, failed: false };

  static getDerivedStateFromError(error: unknown): SectionBoundaryState {
    return { error, failed: true };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    this.props.onError?.(error, info);
  }

  override render(): ReactNode {
    return this.state.failed ? this.props.fallback(this.state.error) : this.props.children;
  }
}

/**
 * The root's `onCaughtError`. React logs every error a boundary catches, stack
 * and all; a section's failure is reported once by the section itself, with
 * its stage and URL, so React's copy is left out. Anything else is logged as
 * React would.
 */
export function logCaughtError(error: unknown, info: { errorBoundary?: Component<unknown> | null }): void {
  if (info.errorBoundary instanceof SectionBoundary) return;
  console.error(error);
}
