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
