// The server-rendered page's script (page-script/start-page-script.ts): a
// compilation of its own, without Module Federation. The server names the
// host's entry on this script's tag; it is loaded only when an island needs it.
import { startPageScript } from './page-script/start-page-script';

startPageScript(document, document.currentScript?.getAttribute('data-src') ?? null);
