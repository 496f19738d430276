/** `text` parsed as the content of a section's slot by the HTML standard's algorithm and written out from the tree. */
export declare function readAsBrowser(text: string): string;

/** A section's HTML as a browser reads it, with `attribute` taken off its elements: `taken` is the first form's value of it. */
export interface SectionReading {
  html: string;
  taken: string | undefined;
}

/** `readAsBrowser`, with `attribute` taken out of the HTML and given back apart. */
export declare function readSectionAsBrowser(text: string, attribute: string): SectionReading;
