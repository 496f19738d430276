import { use } from 'react';
import type { TextLoader } from '../i18n/create-text-loader';
import { usePortico } from './use-portico';

/**
 * A section's own texts in the page's language. It suspends while that
 * language's chunk downloads (the host shows the section's loading line), and
 * a failed download is thrown to the section's error boundary.
 */
export function useSectionText<T>(loader: TextLoader<T>): T {
  return use(loader(usePortico().language));
}
