/**
 * The messages between the front server (`npm run serve`) and the render
 * worker it forks, over Node's IPC channel. Types and constants only.
 */
import type { Language, SectionId } from '@portico/shared-config/contract';

/** One page to render: everything the worker needs comes in the message; it reads no file. */
export interface PageRequest {
  /** The built host index.html: its scripts and styles, and the slots the page fills. */
  template: string;
  language: Language;
  /**
   * The page's address as asked for, for its links and its `?remote.<section>=`
   * overrides: the worker resolves them as the browser will and leaves those
   * sections to the browser, loading nothing from the address.
   */
  pathname: string;
  search: string;
  /** The visitor-facing origin (`https://www.example`), for the head's absolute URLs. */
  origin: string;
  /** config.json as served, a JSON value: the worker parses it as the page does. */
  config: unknown;
  /**
   * Each configured section's mf-manifest.json text as the front server
   * fetched it (config.json's remotes only); absent: left to the browser.
   */
  manifests: Partial<Record<SectionId, string>>;
  /** The front server's budget for this page; the worker leaves a section to the browser to keep inside it. */
  budgetMs: number;
}

export type ToWorker =
  | { type: 'render'; id: number; page: PageRequest }
  /** Loads every section the pages name and renders each page once, before the worker is switched in. */
  | { type: 'warm'; id: number; pages: PageRequest[] };

/** How each section came out: rendered on the server, or left to the browser (and why). */
export type SectionOutcomes = Partial<Record<SectionId, 'server' | `browser: ${string}`>>;

export type FromWorker =
  | { type: 'ready' }
  | { type: 'page'; id: number; html: string; sections: SectionOutcomes; renderMs: number }
  | { type: 'warmed'; id: number }
  | { type: 'failed'; id: number; reason: string };
