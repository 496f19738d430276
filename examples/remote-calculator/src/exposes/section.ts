// The one module this remote exposes to the host, as `./section`.
export { CalculatorSection as Section } from '../components/calculator-section';
