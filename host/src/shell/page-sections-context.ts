import { createContext } from 'react';
import type { PageSection } from '@portico/contract/page-data';

/**
 * The page's sections, in tab order, labelled in its language: the list the
 * front server chose for this visit (the shell worker's request, the page
 * data), or, on a client-rendered page, config.json's with the built-in
 * defaults. Undefined where no page provides it (the benchmark's
 * single-bundle page): the built-in sections then (use-page-sections.ts).
 */
export const PageSectionsContext = createContext<readonly PageSection[] | undefined>(undefined);
