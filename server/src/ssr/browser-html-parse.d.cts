/** `text` parsed as the content of a section's slot by the HTML standard's algorithm and written out from the tree. */
export declare function readAsBrowser(text: string): string;
