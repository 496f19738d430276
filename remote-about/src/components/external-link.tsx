import type { ReactNode } from 'react';

export interface ExternalLinkProps {
  href: string;
  children: ReactNode;
}

/** A link off this site: it learns nothing about the page that sent the visitor. */
export function ExternalLink({ href, children }: ExternalLinkProps) {
  return (
    <a href={href} rel="noopener noreferrer">
      {children}
    </a>
  );
}
