import { PAGE_DATA_ID, parsePageData, type PageData } from '@portico/contract/page-data';

/** The hydration data of a server-rendered page, or undefined on the client-rendered page. */
export function readPageData(document: Document): PageData | undefined {
  return parsePageData(document.getElementById(PAGE_DATA_ID)?.textContent);
}
