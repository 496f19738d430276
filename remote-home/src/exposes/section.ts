// The one module this remote exposes to the host, as `./section`.
export { HomeSection as Section } from '../components/home-section';
