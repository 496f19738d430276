import { PAGE_DATA_ID, parsePageData, type PageData } from '@portico/contract/page-data';

/**
 * The hydration data of a server-rendered page, or undefined on the
 * client-rendered page. Found as the `<script>` element that holds it: a
 * section's HTML may carry no script, so an element of a section's with the
 * same id (refused by the server's check in any case) is never taken for it.
 */
export function readPageData(document: Document): PageData | undefined {
  return parsePageData(document.querySelector(`script[type="application/json"]#${PAGE_DATA_ID}`)?.textContent);
}
