// The one module this remote exposes to the host, as `./section`.
export { AboutSection as Section } from '../components/about-section';
