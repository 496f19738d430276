// The one module this remote exposes to the host, as `./section`.
export { ContactSection as Section } from '../components/contact-section';
