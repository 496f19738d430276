// The one module this remote exposes to the host, as `./section`.
export { SectionView as Section } from '../components/section-view';
